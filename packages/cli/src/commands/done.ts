import { itemChange } from './item-command.js';

export const done = itemChange({
  name: 'done',
  summary: 'mark items done',
  verb: 'done',
  manual: `Marks each item done. Running it again changes nothing (it sets, it does not flip). With
several ids, one that is refused (not found, say) is reported on stderr, the others are still
done, and the exit code is 1; with --json, an array of the items that were done.

Example:
  cin done 3fa9c2e1 77b0d2aa 0c1f9e3b`,
  change: (inbox, id) => inbox.items.update(id, { status: 'done' }),
});
