import { writeFileSync } from 'node:fs';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createServices } from '../container.js';
import { storagePortsFor } from '../storage-ports.js';
import { openDatabase } from '../open-database.js';

/**
 * Prints the OpenAPI document the server would serve, built from the route schemas on a
 * throwaway in-memory database. With a path argument it writes the file instead (docs/openapi.json
 * is kept in the repository so clients can diff it; a test fails when it drifts from the code).
 */
export async function generateOpenApi(): Promise<string> {
  const handle = openDatabase('sqlite::memory:');
  try {
    // The document depends on no setting but the public URL: an empty environment's settings will do.
    const services = createServices({ db: handle, ports: storagePortsFor(handle.dialect), config: loadConfig({}) });
    const app = await buildApp({ config: { publicUrl: 'http://localhost:8080' }, services });
    await app.ready();
    const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    await app.close();
    return document;
  } finally {
    await handle.db.destroy();
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  generateOpenApi()
    .then((document) => {
      const target = process.argv[2];
      if (target) writeFileSync(target, document);
      else process.stdout.write(document);
    })
    .catch((error: unknown) => {
      process.stderr.write(`openapi: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
}
