import type { EmailInReader } from './mail-reader.js';

/**
 * The reader, loaded on its first start: the IMAP client, the MIME parser and the HTML converter
 * cost some 25 MB of resident memory once imported, which a server without email-in (or a CLI
 * command) should not pay. `load` imports mail-reader.js; nothing else imports it statically.
 */
export function lazyEmailInReader(load: () => Promise<EmailInReader>): EmailInReader {
  let loading: Promise<EmailInReader> | undefined;
  let reader: EmailInReader | undefined;
  let wanted = false;
  return {
    start() {
      wanted = true;
      loading ??= load().then((loaded) => (reader = loaded));
      // A stop() before the load finished wins: start only if still wanted.
      void loading.then((loaded) => {
        if (wanted) loaded.start();
      });
    },
    async stop() {
      wanted = false;
      if (loading) await (await loading).stop();
    },
    get reading() {
      return reader?.reading ?? false;
    },
  };
}
