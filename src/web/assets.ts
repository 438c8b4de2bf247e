import { ATTACHMENTS_CSS } from './attachments-styles.js';
import { createHash } from 'node:crypto';
import { CLIENT } from './client-bundle.js';
import { PHONE_CSS } from './phone-styles.js';
import { QUICK_ADD_CSS } from './quick-add-styles.js';

/*
 * The web app's only static files, kept in memory so the build needs no copy step: the stylesheet,
 * and the page script bundled from src/web/client (client-bundle.ts). Their URLs carry a content
 * hash, so browsers may cache them forever and a new release is fetched at once.
 */

const CSS = `
:root {
  color-scheme: light dark;
  --bg: #f7f7f5; --fg: #1d1d1f; --muted: #5c5c66; --line: #d9d9de; --card: #fff;
  --accent: #2451b7; --accent-fg: #fff; --danger: #b42318; --ok: #157347; --warn-bg: #fff4d6; --warn-line: #e8c46a;
  --focus: #f59e0b; --radius: 10px;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #141417; --fg: #ececf1; --muted: #a4a4b0; --line: #34343c; --card: #1e1e23;
    --accent: #7aa2ff; --accent-fg: #0d1330; --danger: #ff8a80; --ok: #6fd29a; --warn-bg: #3a3016; --warn-line: #8a6d1f;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; top: .5rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { background: var(--card); border-bottom: 1px solid var(--line); }
header.top nav { max-width: 72rem; margin: 0 auto; padding: .6rem 1rem; display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .25rem 1rem; }
header.top .brand { font-weight: 700; color: var(--fg); text-decoration: none; }
header.top .links { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1rem; }
header.top a[aria-current="page"] { font-weight: 600; text-decoration: none; color: var(--fg); }
header.top form { margin: 0; }
main { max-width: 52rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .25rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; margin-bottom: 1.25rem; }
.card > :first-child, .alert > :first-child { margin-top: 0; }
.card > :last-child, .alert > :last-child { margin-bottom: 0; }
.narrow { max-width: 26rem; margin-left: auto; margin-right: auto; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
.field { margin-bottom: 1rem; }
.hint { color: var(--muted); font-size: .9rem; font-weight: 400; }
input[type=text], input[type=email], input[type=password], input[type=search], input[type=url], input[type=number], select, textarea {
  width: 100%; font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: .55rem .7rem;
}
input, select { height: 2.75rem; }
textarea { resize: vertical; }
button, .button {
  font: inherit; font-weight: 600; display: inline-flex; align-items: center; justify-content: center; gap: .35rem; min-height: 2.75rem;
  padding: .45rem .95rem; border-radius: 8px; border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; text-decoration: none;
}
button:hover, .button:hover { border-color: var(--muted); }
button.primary, .button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); }
button.danger { color: var(--danger); }
button.link { border: 0; background: none; color: var(--accent); padding: 0; min-height: 0; font-weight: 400; text-decoration: underline; }
button.small { min-height: 2.1rem; padding: .2rem .6rem; font-size: .9rem; }
.actions-row { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; }
.alert { border-radius: 8px; padding: .75rem 1rem; margin-bottom: 1rem; border: 1px solid var(--line); background: var(--card); }
.alert.error { border-color: var(--danger); color: var(--danger); }
.alert.success { border-color: var(--ok); }
.alert.warn { background: var(--warn-bg); border-color: var(--warn-line); color: var(--fg); }
.muted { color: var(--muted); }
.small { font-size: .9rem; }

/* Inbox */
.capture { display: grid; gap: .6rem; margin-bottom: 1rem; }
.capture textarea { font-size: 1.05rem; min-height: 3.2rem; }
.capture .options { display: flex; flex-wrap: wrap; gap: .6rem; }
.capture .options select { width: auto; flex: 1 1 8rem; }
.capture .options button { flex: 0 0 auto; }
@media (max-width: 34rem) { .capture .options button.primary { flex-basis: 100%; } .capture .options .voice { flex: 1 1 auto; } }
.capture p:empty { display: none; }
.quick-add { display: flex; flex-wrap: wrap; gap: .4rem; margin: 0; }
.quick-add[hidden] { display: none; }
.quick-add .chip { border-radius: 999px; padding: .1rem .6rem; background: color-mix(in srgb, var(--accent) 14%, transparent); }
.quick-add .chip b { font-weight: 600; opacity: .75; }
.brain-dump { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .4rem 1rem; }
.brain-dump[hidden], .brain-dump-list[hidden] { display: none; }
.brain-dump-list { flex-basis: 100%; margin: 0; padding: 0; list-style: none; display: grid; gap: .35rem; }
.brain-dump-list li { display: flex; flex-wrap: wrap; align-items: center; gap: .3rem .5rem; }
.brain-dump-list li[data-depth="1"] { padding-left: 1.5rem; }
.brain-dump-list li[data-depth="2"] { padding-left: 3rem; }
.brain-dump-list li[data-depth="3"] { padding-left: 4.5rem; }
.brain-dump-list li input[type=text] { flex: 1 1 12rem; width: auto; }
.brain-dump-list li.done input[type=text] { text-decoration: line-through; }
.brain-dump-list .quick-add { flex-basis: 100%; }
.filters { margin-bottom: 1rem; }
.search-line { display: flex; gap: .5rem; }
.search-line input { flex: 1 1 auto; text-overflow: ellipsis; }
.filter-more summary { cursor: pointer; color: var(--accent); padding: .6rem .25rem; }
.filter-fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .6rem; }
.filter-fields label { font-size: .85rem; font-weight: 600; color: var(--muted); margin: 0 0 .2rem; }
.list-heading { margin-bottom: .75rem; }
.group { margin-bottom: 1rem; }
.group-heading { font-size: 1rem; margin: 0 0 .4rem; }
.group-heading.overdue { color: var(--danger); }
.group-heading .count, .done-today .count { font-weight: 400; }
.done-today { margin: 1rem 0; }
.done-today > summary { cursor: pointer; font-weight: 600; padding: .6rem 0; }
.items { list-style: none; margin: 0; padding: 0; }
.item { position: relative; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: .5rem 3.25rem .5rem .6rem; margin-bottom: .4rem; }
.item .row { display: flex; gap: .6rem; align-items: flex-start; margin: 0; }
.item:focus { outline: 3px solid var(--focus); outline-offset: 2px; }
.check { width: 2.75rem; height: 2.75rem; min-height: 0; padding: 0; border-radius: 50%; border: 2px solid var(--muted); font-size: 1.1rem; flex: 0 0 auto; background: var(--card); }
.check[aria-pressed="true"] { background: var(--ok); border-color: var(--ok); color: var(--card); }
.item .body { flex: 1 1 auto; min-width: 0; }
.item .title { margin: .1rem 0 0; font-weight: 600; overflow-wrap: anywhere; }
.item.done > .line .title { text-decoration: line-through; color: var(--muted); }
.item .content { margin: 0; color: var(--muted); overflow-wrap: anywhere; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: .92rem; }
.item .meta { display: flex; flex-wrap: wrap; gap: .1rem .5rem; margin: 0; font-size: .85rem; color: var(--muted); }
.badge { border: 1px solid var(--line); border-radius: 999px; padding: 0 .5rem; }
.more > summary { position: absolute; top: .5rem; right: .5rem; list-style: none; width: 2.75rem; height: 2.75rem; display: flex; align-items: center; justify-content: center; border-radius: 50%; cursor: pointer; font-size: 1.3rem; color: var(--muted); border: 1px solid transparent; }
.more > summary::-webkit-details-marker { display: none; }
/* The row's ⋯ is drawn here, not sent in each of 150 rows (issue 47 budget: Today under 150 KB); its name is its aria-label. */
.more > summary:empty::before { content: "⋯"; }
.more > summary:hover, .more[open] > summary { border-color: var(--line); background: var(--bg); }
.more-form { display: grid; gap: .5rem; margin: .6rem 0 .2rem; padding-top: .6rem; border-top: 1px solid var(--line); }
.more-line { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.more-line label { margin: 0; font-weight: 600; font-size: .9rem; min-width: 5.5rem; }
.more-line input, .more-line select { width: auto; flex: 1 1 10rem; height: 2.5rem; }
.subtasks { list-style: none; margin: .4rem 0 0 3.35rem; padding: 0; }
.item.sub { border: 0; border-top: 1px solid var(--line); border-radius: 0; margin: 0; padding: .35rem 3.25rem .35rem 0; }
.item.sub .check { width: 2.25rem; height: 2.25rem; }
.item.sub .more > summary { top: .25rem; right: 0; }
.toast { position: fixed; left: 50%; bottom: 1.25rem; transform: translateX(-50%); z-index: 20; display: flex; gap: .75rem; align-items: center; background: var(--fg); color: var(--bg); padding: .5rem .6rem .5rem 1rem; border-radius: 999px; box-shadow: 0 4px 16px rgb(0 0 0 / .25); width: max-content; max-width: calc(100% - 2rem); }
.toast span { white-space: normal; }
.toast button { background: var(--bg); color: var(--fg); border-color: var(--bg); }
.checklist { list-style: decimal; padding-left: 1.5rem; margin: 0 0 1rem; }
.checklist li { padding: .25rem 0; }
.checklist li > form { display: inline-block; vertical-align: middle; margin: 0 .5rem 0 0; }
.checklist .check { width: 2.25rem; height: 2.25rem; }
.checklist li.done > a { text-decoration: line-through; color: var(--muted); }
.item-head { display: flex; gap: .75rem; align-items: center; }
.item-head form { margin: 0; }
.item-head .item-title { margin: 0; }
details.edit > summary { cursor: pointer; font-weight: 700; font-size: 1.2rem; padding: .35rem 0; }
details.edit[open] > summary { margin-bottom: .75rem; }
details.change > summary { cursor: pointer; font-weight: 600; color: var(--accent); padding: .35rem 0; }
details.change[open] > summary { margin-bottom: .75rem; }
.capture-keys { margin: 0; }
@media (max-width: 34rem) {
  header.top nav { flex-wrap: nowrap; padding: .35rem .75rem; gap: .75rem; }
  header.top .brand { display: none; }
  header.top .links { flex-wrap: nowrap; overflow-x: auto; gap: 0 1rem; scrollbar-width: none; white-space: nowrap; }
  header.top .links a, header.top .links button.link { display: inline-flex; align-items: center; min-height: 2.75rem; }
  main { padding: .6rem .6rem 3rem; }
  .list-heading { font-size: 1.3rem; margin: .1rem 0 .5rem; }
  .capture { margin-bottom: .5rem; gap: .4rem; }
  .capture textarea { min-height: 0; height: 2.75rem; resize: none; padding: .55rem .7rem; }
  .capture:focus-within textarea, .capture textarea:not(:placeholder-shown) { height: 7rem; }
  .capture:not(:focus-within):has(textarea:placeholder-shown) > :not(textarea):not(.quick-add-field):not(input):not(label):not(.field-error):not(.offline-queue) { display: none; }
  .filters { margin-bottom: .5rem; display: flex; flex-wrap: wrap; gap: 0 .5rem; align-items: center; }
  .search-line { flex: 1 1 12rem; }
  .filter-more { flex: 0 0 auto; }
  .filter-more[open] { flex-basis: 100%; }
  .item .content { display: none; }
  .subtasks { margin-left: 1.5rem; }
}
.empty { text-align: center; color: var(--muted); padding: 2rem 1rem; }
.pager { display: flex; justify-content: flex-end; margin-top: 1rem; }

/* Wider pages with a sidebar */
main.wide { max-width: 72rem; }
.with-sidebar { display: grid; grid-template-columns: minmax(0, 1fr) 15rem; gap: 1.5rem; align-items: start; }
@media (max-width: 60rem) { .with-sidebar { grid-template-columns: minmax(0, 1fr); } }
.sidebar { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 1rem; }
.sidebar h2 { font-size: 1rem; margin: 0 0 .5rem; }
.sidebar h2 + ul { margin-bottom: 1rem; }
.nav-list, .tag-list { list-style: none; margin: 0; padding: 0; }
.nav-list a { display: flex; justify-content: space-between; gap: .5rem; padding: .4rem .5rem; border-radius: 6px; text-decoration: none; color: var(--fg); }
.nav-list a:hover, .nav-list a[aria-current="page"] { background: var(--bg); }
.nav-list a[aria-current="page"] { font-weight: 700; }
.count { color: var(--muted); font-variant-numeric: tabular-nums; }
.tag-list { display: flex; flex-wrap: wrap; gap: .35rem; }
.tag-list a { display: inline-block; padding: .2rem .55rem; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; font-size: .9rem; }
.tag-list a[aria-current="page"] { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
.tag-list a[aria-current="page"] .count { color: inherit; }
.item .title a { color: inherit; text-decoration: none; }
.item .title a:hover { text-decoration: underline; }
.item .meta a { color: var(--accent); }
.badge { text-decoration: none; }
.due { font-weight: 600; }
.mark.repeat { font-weight: 700; }
form.snooze { align-items: center; margin-top: 1rem; }
#channels td code { white-space: normal; overflow-wrap: anywhere; min-width: 0; }
.due.overdue { color: var(--danger); }
.due.overdue::before { content: "⚠ " / ""; }
.check-label { display: inline-flex; align-items: center; gap: .4rem; font-weight: 400; margin: 0; min-height: 2.75rem; }
.check-label input { width: 1.1rem; height: 1.1rem; margin: 0; }
.field-error { color: var(--danger); margin: .3rem 0 0; font-size: .92rem; font-weight: 600; }
.has-error input, .has-error textarea, .has-error select, textarea[aria-invalid="true"] { border-color: var(--danger); }
.grid-2 { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1rem; }
@media (max-width: 34rem) { .grid-2 { grid-template-columns: 1fr; } }
input[type=date], input[type=time] { width: 100%; font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: .45rem .7rem; }
fieldset.tags-field { border: 1px solid var(--line); border-radius: var(--radius); padding: .5rem .75rem; margin: 0 0 1rem; }
fieldset.tags-field legend { font-weight: 600; }
.tag-checks { list-style: none; padding: 0; margin: .25rem 0 .75rem; display: flex; flex-wrap: wrap; gap: .4rem; }
.tag-checks label { display: inline-flex; align-items: center; gap: .35rem; font-weight: 400; border: 1px solid var(--line); border-radius: 999px; padding: .2rem .6rem; margin: 0; }
.tag-checks input { width: 1rem; height: 1rem; margin: 0; }
.crumbs { font-size: .9rem; color: var(--muted); margin-bottom: .25rem; overflow-wrap: anywhere; }
.item-title { overflow-wrap: anywhere; margin-bottom: .25rem; }
.item-meta { color: var(--muted); margin: 0 0 1rem; display: flex; flex-wrap: wrap; gap: .25rem .5rem; }
.item-title.done { text-decoration: line-through; color: var(--muted); }
.notes { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: .25rem 1.25rem; margin-bottom: 1.25rem; overflow-wrap: anywhere; }
.notes pre { overflow-x: auto; background: var(--bg); padding: .5rem; border-radius: 6px; }
.notes code { font-size: .92em; }
.organized form { margin: .5rem 0 0; }
.organized-actions { display: flex; flex-wrap: wrap; gap: 0 .5rem; }
.alert.pro-hint { border-color: var(--accent); }
.inline-form .field { min-width: 0; }
dialog { border: 1px solid var(--line); border-radius: var(--radius); background: var(--card); color: var(--fg); max-width: 32rem; width: calc(100% - 2rem); }
dialog::backdrop { background: rgb(0 0 0 / .45); }
kbd { font: .85rem ui-monospace, SFMono-Regular, Menlo, monospace; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 .3rem; }
.danger-zone { border-color: var(--danger); }
.sessions td form { margin: 0; }

/* Settings */
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .55rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; color: var(--muted); }
td code { font-size: .9rem; white-space: nowrap; }
tr.revoked td { color: var(--muted); }
@media (max-width: 40rem) {
  table, tbody, tr, td { display: block; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  tr { border: 1px solid var(--line); border-radius: 8px; padding: .4rem .6rem; margin-bottom: .6rem; }
  td { border: 0; padding: .2rem 0; display: flex; gap: .75rem; }
  td::before { content: attr(data-label); flex: 0 0 6.5rem; color: var(--muted); font-size: .85rem; }
  /* A long value (an email and its "(owner)", one item) wraps in its column instead of leaving the screen. */
  td { overflow-wrap: anywhere; }
  td > .cell { min-width: 0; }
}
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0 0 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
/* On a phone a long term (the filter language's examples) would squeeze its meaning to a letter a line. */
@media (max-width: 40rem) { dl.facts { grid-template-columns: minmax(0, 1fr); gap: .1rem; } dl.facts dd { margin-bottom: .5rem; } }
.inline-form { display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; margin-bottom: 1rem; }
.inline-form .field { flex: 1 1 14rem; margin: 0; }
.token { display: flex; gap: .5rem; flex-wrap: wrap; }
.token textarea { flex: 1 1 16rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; word-break: break-all; resize: none; }
.token button { align-self: flex-start; }
#calendar-apps code { overflow-wrap: anywhere; }
#calendar-apps input[readonly] { width: 100%; min-width: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }

/* Pairing */
.request-label { font-size: 1.25rem; font-weight: 700; overflow-wrap: anywhere; }
.decision { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1rem; }
.decision button { flex: 1 1 10rem; }
fieldset.scopes { border: 1px solid var(--line); border-radius: var(--radius); padding: .5rem .75rem; margin: .75rem 0; }
fieldset.scopes label { font-weight: 400; display: flex; gap: .5rem; align-items: center; margin: .25rem 0; }
fieldset.scopes input { width: 1.1rem; height: 1.1rem; margin: 0; flex: none; }
/* Filters (issue 48): the query box is monospace, so the error's caret sits under its character. */
.query { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace !important; }
.filter-box { margin-bottom: 1rem; } .filter-box .hint { margin: .35rem 0 0; }
.query-error { overflow: hidden; } .query-error .field-error { margin-top: 0; }
.caret-line { margin: 0; padding: 0 .7rem; white-space: pre; font: 1rem/1.1 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--danger); font-weight: 700; }
svg.dot { flex: none; margin-right: .35rem; vertical-align: baseline; } .view-heading svg.dot { width: .8rem; height: .8rem; }
.view-query { margin: -.25rem 0 .75rem; overflow-wrap: anywhere; } .views-list .row { align-items: center; } .views-list form { margin: 0; }
/* Actions in place (issue 47): a tick shows at once; a row whose change is on its way or waiting offline is greyed. */
html:not(.js) .item .more { display: none; }
.item.pending > .line { opacity: .55; }
.item.pending > .line .check { border-style: dashed; }
/* The offline outbox (decision 0085): what waits is greyed in place, a banner counts it, notes say what became of it. */
.item.queued > .line { opacity: .75; }
.item.queued > .line .check { border-style: dashed; }
.queued-note, .queued-captures .meta { font-style: italic; }
.outbox-banner { background: var(--warn-bg); border: 1px solid var(--warn-line); border-radius: var(--radius); padding: .5rem .75rem; margin: 0 0 .75rem; }
.queued-captures, .outbox-notes { list-style: none; margin: 0 0 .75rem; padding: 0; }
.outbox-notes .note { border-left: 3px solid var(--ok); padding: .25rem .75rem; margin: .25rem 0; }
.outbox-notes .note.conflict, .outbox-notes .note.read-only { border-left-color: var(--danger); }
.confirm-step { flex-basis: 100%; margin-top: .5rem; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.confirm-step p { flex-basis: 100%; margin: 0; }
.group-action { margin: -.25rem 0 .5rem; }
`;

export interface Asset {
  path: string;
  body: string;
  type: string;
}

function asset(name: string, ext: string, body: string, type: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}.${hash}.${ext}`, body, type };
}

export const STYLESHEET = asset('app', 'css', CSS + QUICK_ADD_CSS + PHONE_CSS + ATTACHMENTS_CSS, 'text/css; charset=utf-8');
export const SCRIPT = asset('app', 'js', CLIENT.app, 'text/javascript; charset=utf-8');
export const ASSETS: readonly Asset[] = [STYLESHEET, SCRIPT];
