/*
 * Quick add in the field (client/quick-add/quick-add-field.ts, decision 0098): the textarea's own
 * background is made transparent and drawn by its frame instead, so the marks of the mirror behind
 * it show under the words. The mirror's ink is transparent: only the textarea's text is read.
 * The script sets the mirror's width after a resize is observed; until then `max-width` keeps it in
 * its frame, or a window that narrows (a phone turned, a desktop window made small) scrolls sideways.
 */
export const QUICK_ADD_CSS = `
.quick-add-field { position: relative; display: grid; background: var(--bg); border-radius: 8px; }
.quick-add-field > textarea { position: relative; z-index: 1; display: block; background: transparent; }
.quick-add-mirror {
  position: absolute; top: 0; left: 0; max-width: 100%; overflow: hidden; pointer-events: none; color: transparent;
  border-style: solid; border-color: transparent; white-space: pre-wrap; overflow-wrap: break-word; word-break: normal;
}
.quick-add-mark { color: transparent; border-radius: 4px; padding: 0; box-shadow: 0 2px 0 var(--accent);
  background: color-mix(in srgb, var(--accent) 22%, transparent); }
.quick-add-tag, .quick-add-project { background: color-mix(in srgb, var(--ok) 22%, transparent); box-shadow: 0 2px 0 var(--ok); }
.quick-add { align-items: center; }
.quick-add .chip-refuse { min-height: 0; padding: 0 .45rem; margin-left: -.35rem; border-radius: 999px; line-height: 1.5;
  font-weight: 600; border-color: transparent; background: transparent; color: var(--muted); }
.quick-add .chip-refuse:hover { color: var(--danger); }
@media (max-width: 37.5rem) { .quick-add .chip-refuse { min-width: 44px; min-height: 44px; margin: -10px 0 -10px -.6rem; } }
`;
