/** The item page's files and the drop zone (web/attachments-view.ts, client/attachments). */
export const ATTACHMENTS_CSS = `
.attachments{list-style:none;padding:0;margin:0 0 1rem;display:grid;gap:.75rem}
.attachment{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
.attachment-thumb img{width:96px;height:96px;object-fit:cover;border-radius:6px;border:1px solid #ddd;display:block}
.attachment-info{flex:1;min-width:10rem;overflow-wrap:anywhere}
.attachment-info p{margin:.1rem 0 0}
.attachment audio{max-width:100%}
.attach-form{display:grid;gap:.4rem;justify-items:start}
.drop-over{outline:3px dashed #2451b7;outline-offset:4px}
`;
