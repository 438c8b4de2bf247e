import { itemChange } from './item-command.js';

export const archive = itemChange({
  name: 'archive',
  summary: 'archive an item',
  verb: 'archived',
  manual: `Archives the item: it leaves cin ls (cin ls --all still shows it) and can be restored in the web app.

Example:
  cin archive 3fa9c2e1`,
  change: (inbox, id) => inbox.items.archive(id),
});
