/** A row's item id: its element id is `item-<id>`, the only place a row carries it (Today's size budget, issue 47). */
export const rowItemId = (row: Element): string => (row.id.startsWith('item-') ? row.id.slice(5) : '');
