import { describe, expect, it } from 'vitest';
import {
  actionFormData,
  captureFormData,
  conflictMessage,
  OutboxConflict,
  inTypedOrder,
  ownedBy,
  replayOutbox,
  singleReplay,
  waitingMessage,
  type OutboxPorts,
  type QueuedAction,
  type QueuedCapture,
} from '../../../src/web/client/offline/outbox-replay.js';

const capture = (id: string, at: number, extra: Partial<QueuedCapture> = {}): QueuedCapture => ({ client_id: id, text: `text ${id}`, at, ...extra });

/** An outbox in memory: `fails` names the entries the server refuses; `log` records each call. */
function memoryOutbox(entries: QueuedCapture[], fails: ReadonlySet<string> = new Set()) {
  const kept = new Map(entries.map((entry) => [entry.client_id, entry]));
  const log: string[] = [];
  const ports: OutboxPorts<QueuedCapture> = {
    list: async () => [...kept.values()],
    send: async (entry) => {
      log.push(`send ${entry.client_id}`);
      if (fails.has(entry.client_id)) throw new Error('offline again');
      return `page after ${entry.client_id}`;
    },
    remove: async (entry) => {
      log.push(`remove ${entry.client_id}`);
      kept.delete(entry.client_id);
    },
  };
  return { ports, log, kept };
}

describe('the offline outbox replay', () => {
  it('sends the waiting captures in the order they were typed, removing each once the server has it', async () => {
    const outbox = memoryOutbox([capture('b', 20), capture('c', 30), capture('a', 10)]);
    const result = await replayOutbox(outbox.ports);
    expect(outbox.log).toEqual(['send a', 'remove a', 'send b', 'remove b', 'send c', 'remove c']);
    expect(result).toEqual({ sent: 3, lastAnswer: 'page after c', stopped: false, conflicts: [] });
    expect(outbox.kept.size).toBe(0);
  });

  it('stops at the first failure, keeping that capture and every later one for the next replay', async () => {
    const outbox = memoryOutbox([capture('a', 10), capture('b', 20), capture('c', 30)], new Set(['b']));
    const result = await replayOutbox(outbox.ports);
    expect(outbox.log).toEqual(['send a', 'remove a', 'send b']);
    expect(result).toEqual({ sent: 1, lastAnswer: 'page after a', stopped: true, conflicts: [] });
    expect([...outbox.kept.keys()]).toEqual(['b', 'c']);
  });

  it('keeps a capture whose removal failed, to be sent again with the same client id (saved once)', async () => {
    const outbox = memoryOutbox([capture('a', 10), capture('b', 20)]);
    const ports: OutboxPorts<QueuedCapture> = {
      ...outbox.ports,
      remove: async () => {
        throw new Error('quota');
      },
    };
    expect(await replayOutbox(ports)).toEqual({ sent: 0, lastAnswer: 'page after a', stopped: true, conflicts: [] });
    expect([...outbox.kept.keys()]).toEqual(['a', 'b']);
  });

  it('answers no page when nothing waits', async () => {
    expect(await replayOutbox(memoryOutbox([]).ports)).toEqual({ sent: 0, lastAnswer: null, stopped: false, conflicts: [] });
  });

  it('runs one replay at a time: a second call while one runs sends nothing', async () => {
    const outbox = memoryOutbox([capture('a', 10)]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const replay = singleReplay<QueuedCapture>({
      ...outbox.ports,
      send: async (entry) => {
        await gate;
        return outbox.ports.send(entry);
      },
    });
    const first = replay();
    const second = replay();
    release();
    expect(await second).toBeNull();
    expect(await first).toEqual({ sent: 1, lastAnswer: 'page after a', stopped: false, conflicts: [] });
    expect(outbox.log).toEqual(['send a', 'remove a']);
    // Once done, the next call replays again.
    expect(await replay()).toEqual({ sent: 0, lastAnswer: null, stopped: false, conflicts: [] });
  });

  it('orders by the time typed without changing the list it was given', () => {
    const list = [capture('b', 2), capture('a', 1)];
    expect(inTypedOrder(list).map((entry) => entry.client_id)).toEqual(['a', 'b']);
    expect(list.map((entry) => entry.client_id)).toEqual(['b', 'a']);
  });

  it('sends the form fields the capture kept, with the form token and return address, and the time it was typed', () => {
    const data = captureFormData(capture('id-1', 5, { type: 'todo', project_id: 'p1' }), 'token', '/inbox');
    expect([...data.entries()]).toEqual([
      ['_csrf', 'token'],
      ['return', '/inbox'],
      ['client_id', 'id-1'],
      ['text', 'text id-1'],
      ['type', 'todo'],
      ['project_id', 'p1'],
      ['typed_at', '1970-01-01T00:00:00.005Z'],
    ]);
  });

  it('drops an entry the server refuses for good (a conflict), reports it, and goes on with the next', async () => {
    const outbox = memoryOutbox([capture('a', 10), capture('b', 20), capture('c', 30)]);
    const ports: OutboxPorts<QueuedCapture> = {
      ...outbox.ports,
      send: async (entry) => {
        if (entry.client_id === 'b') throw new OutboxConflict('the item was changed meanwhile.');
        return outbox.ports.send(entry);
      },
    };
    const result = await replayOutbox(ports);
    expect(result).toEqual({
      sent: 2,
      lastAnswer: 'page after c',
      stopped: false,
      conflicts: [{ entry: capture('b', 20), said: 'the item was changed meanwhile.' }],
    });
    expect(outbox.kept.size).toBe(0);
  });

  it('replays an action with the page’s token, its fields and the version it is made on, never its old token', () => {
    const action: QueuedAction = {
      id: 'x',
      item_id: 'i1',
      name: 'Pay rent',
      action: 'due',
      url: '/inbox/items/i1/due',
      fields: [
        ['_csrf', 'old'],
        ['return', '/'],
        ['due_date', '2026-12-01'],
        ['version', '"v0"'],
      ],
      version: '"v0"',
      at: 1,
    };
    expect([...actionFormData(action, 'new', '"v1"').entries()]).toEqual([
      ['_csrf', 'new'],
      ['return', '/'],
      ['due_date', '2026-12-01'],
      ['version', '"v1"'],
    ]);
    expect(conflictMessage(action, 'it is gone.')).toBe('Your new date of “Pay rent”, made offline, was not applied: it is gone.');
  });

  it('says how many captures wait, and nothing when none do', () => {
    expect(waitingMessage(0)).toBe('');
    expect(waitingMessage(2)).toBe('2 waiting to be saved: they are sent when the connection is back.');
  });

  it("replays only the signed-in user's entries: another account on the same browser never sends them", () => {
    const entries: QueuedCapture[] = [
      { client_id: 'a1', text: 'Ana, typed offline', at: 1, owner: 'user-ana' },
      { client_id: 'b1', text: 'Ben, typed offline', at: 2, owner: 'user-ben' },
      { client_id: 'old', text: 'kept before owners', at: 3 },
    ];
    expect(ownedBy(entries, 'user-ben').map((e) => e.client_id)).toEqual(['b1', 'old']);
    expect(ownedBy(entries, 'user-ana').map((e) => e.client_id)).toEqual(['a1', 'old']);
    // Signed out, nothing is sent (the session would refuse it anyway).
    expect(ownedBy(entries, null)).toEqual([]);
  });
});
