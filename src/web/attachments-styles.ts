/**
 * The item page's files and the drop zone (web/attachments-view.ts, client/attachments). Beside a
 * thumbnail the name may narrow to nothing but a wrapped word, so a phone keeps the row's Delete on
 * its line, at the right as a PDF row's (issue 47); beside a player (300 px) it needs its 10rem.
 */
export const ATTACHMENTS_CSS = `
.attachments{list-style:none;padding:0;margin:0 0 1rem;display:grid;gap:.75rem}
.attachment{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
.attachment-thumb img{width:96px;height:96px;object-fit:cover;border-radius:6px;border:1px solid #ddd;display:block}
.attachment-info{flex:1;min-width:10rem;overflow-wrap:anywhere}
.attachment-thumb + .attachment-info{min-width:0}
.attachment > form{flex:none}
.attachment-info p{margin:.1rem 0 0}
.attachment audio{max-width:100%}
.attach-form{display:grid;gap:.4rem;justify-items:start}
.drop-over{outline:3px dashed #2451b7;outline-offset:4px}
`;
