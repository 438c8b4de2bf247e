import { itemChange } from './item-command.js';

export const done = itemChange({
  name: 'done',
  summary: 'mark an item done',
  verb: 'done',
  manual: `Marks the item done. Running it again changes nothing (it sets, it does not flip).

Example:
  cin done 3fa9c2e1`,
  change: (inbox, id) => inbox.items.update(id, { status: 'done' }),
});
