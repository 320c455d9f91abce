/** The shadow root's own styles: the page's CSS cannot reach inside, and these cannot leak out. */
export const STYLES = `
:host { all: initial; }
* { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji"; }
.bar { position: fixed; display: flex; align-items: center; gap: 2px; padding: 3px; background: #fff; color: #1f2328;
  border: 1px solid #d0d7de; border-radius: 8px; box-shadow: 0 4px 14px rgba(0,0,0,.14); font-size: 13px; line-height: 1;
  z-index: 2147483647; pointer-events: auto; user-select: none; max-width: calc(100vw - 16px); overflow: hidden; }
.bar[hidden], .menu[hidden], .icon[hidden], .card[hidden], .card [hidden] { display: none; }
.card { position: fixed; width: 340px; max-width: calc(100vw - 16px); display: flex; flex-direction: column; gap: 8px; padding: 10px 12px;
  background: #fff; color: #1f2328; border: 1px solid #d0d7de; border-radius: 10px; box-shadow: 0 6px 20px rgba(0,0,0,.16);
  font-size: 14px; line-height: 1.5; z-index: 2147483647; }
.card .head { display: flex; align-items: center; gap: 6px; font-size: 12px; color: #57606a; }
.card select { font: inherit; font-size: 12px; color: inherit; background: transparent; border: 1px solid #d0d7de; border-radius: 6px; padding: 2px 4px; }
.card .x { margin-left: auto; padding: 2px 6px; font-size: 16px; }
.card .out { max-height: 240px; overflow: auto; white-space: pre-wrap; word-break: break-word; user-select: text; }
.card .muted { color: #57606a; }
.card .err { color: #cf222e; }
.card .acts { display: flex; flex-wrap: wrap; gap: 4px; border-top: 1px solid #eaeef2; padding-top: 6px; }
.card .acts button, .card .out button { padding: 4px 8px; font-size: 12px; color: #3b5bdb; }
.busy { position: fixed; display: flex; align-items: center; gap: 6px; padding: 3px 8px; border-radius: 10px; background: #4c6ef5; color: #fff;
  font-size: 12px; line-height: 1.4; box-shadow: 0 2px 8px rgba(0,0,0,.2); z-index: 2147483647; pointer-events: none; max-width: 260px; }
.busy.err { background: #cf222e; }
.busy .spin { width: 10px; height: 10px; border: 2px solid rgba(255,255,255,.4); border-top-color: #fff; border-radius: 50%; animation: spin .8s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
button { all: unset; cursor: pointer; display: inline-flex; align-items: center; gap: 4px; padding: 6px 8px; border-radius: 6px;
  white-space: nowrap; font-size: 13px; color: inherit; }
button:hover, button:focus-visible { background: #eef2ff; color: #3b5bdb; }
.ask { font-weight: 600; color: #3b5bdb; }
.sep { width: 1px; align-self: stretch; margin: 4px 2px; background: #d0d7de; }
.brand { width: 18px; height: 18px; border-radius: 5px; background: #4c6ef5; color: #fff; font-weight: 700; font-size: 11px;
  display: inline-flex; align-items: center; justify-content: center; margin: 0 3px; }
.more { padding: 6px 6px; color: #57606a; }
.menu { position: fixed; display: flex; flex-direction: column; padding: 4px; background: #fff; color: #1f2328; border: 1px solid #d0d7de;
  border-radius: 8px; box-shadow: 0 4px 14px rgba(0,0,0,.14); z-index: 2147483647; min-width: 180px; }
.menu button { padding: 8px 10px; }
.icon { position: fixed; right: 0; width: 40px; height: 40px; display: flex; align-items: center; justify-content: center;
  background: #4c6ef5; color: #fff; border-radius: 20px 0 0 20px; box-shadow: 0 2px 10px rgba(0,0,0,.2); cursor: grab;
  z-index: 2147483646; touch-action: none; transform: translateX(16px); opacity: .55; transition: transform .15s ease, opacity .15s ease; }
.icon:hover, .icon:focus-within { transform: translateX(0); opacity: 1; }
.icon .tp { position: absolute; right: 100%; top: 4px; display: none; padding: 8px 10px; background: #fff; color: #1f2328;
  border: 1px solid #d0d7de; border-radius: 8px; box-shadow: 0 2px 10px rgba(0,0,0,.16); font-size: 12px; }
.icon:hover .tp, .icon .tp:focus-visible { display: inline-flex; }
.icon.dragging { cursor: grabbing; transition: none; }
.icon .logo { font: 700 17px/1 system-ui, sans-serif; pointer-events: none; }
.icon .close { position: absolute; top: -6px; left: -6px; width: 16px; height: 16px; padding: 0; justify-content: center;
  border-radius: 8px; background: #495057; color: #fff; font-size: 11px; opacity: 0; }
.icon:hover .close, .icon .close:focus-visible { opacity: 1; }
.icon .close:hover { background: #212529; color: #fff; }
@media (prefers-color-scheme: dark) {
  .bar, .menu, .card { background: #25262b; color: #e9ecef; border-color: #373a40; }
  .card .head, .card .muted { color: #adb5bd; }
  .card .acts { border-color: #373a40; }
  .card .acts button, .card .out button { color: #91a7ff; }
  button:hover, button:focus-visible { background: #373a40; color: #91a7ff; }
  .ask { color: #91a7ff; }
  .sep { background: #373a40; }
}
`;
