/** The viewer page's stylesheet, inlined so the page needs nothing else. */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --bar: #0969da; --out: #8250df;
  --line: #d0d7de; --muted: #656d76; --bg2: rgba(127,127,127,.08); }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); }
h3 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.facts { color: var(--muted); margin: 0; } .facts b { color: inherit; }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.row { display: grid; grid-template-columns: 220px 1fr 90px; gap: 8px; align-items: center; padding: 2px 0; }
.row .label { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; } .row.call .label { padding-left: 18px; }
.track { position: relative; height: 14px; background: var(--bg2); border-radius: 3px; }
.bar { position: absolute; top: 0; bottom: 0; min-width: 2px; border-radius: 3px; background: var(--bar); }
.bar.call { background: var(--ok); } .bar.call.failed { background: var(--bad); }
.num { text-align: right; font-variant-numeric: tabular-nums; color: var(--muted); }
.usage .track { height: 10px; margin: 2px 0; } .bar.in { background: var(--bar); } .bar.out { background: var(--out); }
.bar.cost { background: var(--warn); }
.key { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-left: 10px; }
.key.in { background: var(--bar); } .key.out { background: var(--out); } .key.cost { background: var(--warn); }
details.call { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
details.call > summary { cursor: pointer; } details.call[open] > summary { margin-bottom: 6px; }
pre { background: var(--bg2); padding: 8px; border-radius: 4px; white-space: pre-wrap; word-break: break-word; margin: 0; }
.msg { border-left: 3px solid var(--line); padding: 2px 10px; margin: 8px 0; }
.msg .role { font-weight: 600; } .msg.user { border-color: var(--bar); } .msg.assistant { border-color: var(--out); }
.msg.tool { border-color: var(--ok); } .msg.tool.error { border-color: var(--bad); }
button { font: inherit; margin-right: 6px; }
`;
