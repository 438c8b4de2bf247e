import { itemChange } from './item-command.js';

export const archive = itemChange({
  name: 'archive',
  summary: 'archive items',
  verb: 'archived',
  manual: `Archives each item: it leaves cin ls (cin ls --all still shows it) and can be restored in the web app.
Several ids: a refused one is reported, the others are still archived, and the exit code is 1.

Example:
  cin archive 3fa9c2e1`,
  change: (inbox, id) => inbox.items.archive(id),
});
