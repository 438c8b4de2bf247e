import { itemChange } from './item-command.js';

export const undone = itemChange({
  name: 'undone',
  summary: 'mark an item not done (back to todo)',
  verb: 'undone',
  manual: `Marks the item not done: its status goes back to todo. Running it again changes nothing.

Example:
  cin undone 3fa9c2e1`,
  change: (inbox, id) => inbox.items.update(id, { status: 'todo' }),
});
