import { itemChange } from './item-command.js';

export const undone = itemChange({
  name: 'undone',
  summary: 'mark items not done (back to todo)',
  verb: 'undone',
  manual: `Marks each item not done: its status goes back to todo. Running it again changes nothing.
Several ids: a refused one is reported, the others are still changed, and the exit code is 1.

Example:
  cin undone 3fa9c2e1`,
  change: (inbox, id) => inbox.items.update(id, { status: 'todo' }),
});
