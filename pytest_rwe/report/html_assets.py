"""The CSS and JavaScript inlined into report.html (no CDN: the file opens offline).

``ERROR_HOOK`` runs first and records any script error or console.error into the page
(``#rwe-errors``), so a headless browser's ``--dump-dom`` shows whether the page ran clean;
``SCRIPT`` runs last and marks the page ``data-rwe-status="ready"``.
"""

from __future__ import annotations

CSS = """
:root { --green: #2e9e44; --yellow: #e0b000; --red: #d64541; --muted: #666;
        --line: #ddd; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
body { margin: 0 auto; max-width: 1240px; padding: 16px 24px 48px; color: #222;
       font-size: 14px; line-height: 1.45; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line);
     padding-bottom: 4px; }
.meta { color: var(--muted); font-size: 13px; }
.meta code { font-size: 12px; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left;
         vertical-align: top; }
th { background: #f6f6f6; font-weight: 600; }
td.model { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px;
          margin-right: 6px; }
.banner { padding: 10px 14px; border-radius: 6px; margin: 12px 0; font-weight: 600; }
.banner.fail { background: #fdecea; color: #8a1f1b; border: 1px solid #f5c2bf; }
.banner.pass { background: #e9f6ec; color: #1d5e2b; border: 1px solid #bfe3c7; }
.banner.note { background: #fff8e1; color: #6b5100; border: 1px solid #f0dc9a;
               font-weight: normal; }
.charts { display: flex; flex-wrap: wrap; gap: 8px 28px; }
.charts figure { margin: 0; }
.charts figcaption { font-weight: 600; margin: 4px 0; }
svg.chart { font-size: 12px; }
svg .label { text-anchor: end; fill: #222; }
svg .value { fill: #333; }
svg .tick { text-anchor: middle; fill: var(--muted); font-size: 11px; }
svg .grid { stroke: #eee; }
svg .centre { stroke: #999; stroke-dasharray: 3 3; }
svg .bar { opacity: 0.85; }
svg .whisker { stroke: #222; stroke-width: 1.6; fill: none; }
svg path.whisker[stroke] { stroke-width: 3; }
.badge { display: inline-block; width: 18px; height: 18px; border-radius: 4px;
         vertical-align: middle; }
.badge.green { background: var(--green); }
.badge.yellow { background: var(--yellow); }
.badge.red { background: var(--red); }
.badge.none { background: #ccc; }
table.grid td { padding: 2px 8px; }
table.grid td.cell { text-align: center; }
table.grid a { text-decoration: none; }
table.grid tr.all-green.hide { display: none; }
details.study { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0;
                padding: 4px 10px; }
details.study > summary { cursor: pointer; font-weight: 600; }
.result { border-top: 1px dashed var(--line); padding: 8px 0; }
.result h4 { margin: 4px 0; font-size: 14px; }
.summary-text { white-space: pre-wrap; background: #fafafa; border-left: 3px solid #bbb;
                padding: 6px 10px; margin: 6px 0; }
.error { color: #8a1f1b; }
td.score-0 { color: var(--red); font-weight: 600; }
td.score-1 { color: var(--green); font-weight: 600; }
td.score-none { color: var(--muted); font-style: italic; }
.explanation { white-space: pre-wrap; max-width: 780px; }
#rwe-errors:empty { display: none; }
#rwe-errors { background: #fdecea; color: #8a1f1b; padding: 8px; white-space: pre-wrap; }
"""

ERROR_HOOK = """
(function () {
  var errors = [];
  window.__rweErrors = errors;
  function record(text) {
    errors.push(String(text));
    var box = document.getElementById('rwe-errors');
    if (box) { box.textContent = errors.join('\\n'); }
    document.documentElement.setAttribute('data-rwe-errors', String(errors.length));
  }
  window.addEventListener('error', function (event) {
    record('error: ' + (event.message || (event.target && event.target.outerHTML)));
  }, true);
  document.addEventListener('securitypolicyviolation', function (event) {
    record('blocked by the page policy: ' + event.violatedDirective + ' ' + event.blockedURI);
  });
  window.addEventListener('unhandledrejection', function (event) {
    record('unhandled rejection: ' + event.reason);
  });
  var original = console.error;
  console.error = function () {
    record('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
  document.documentElement.setAttribute('data-rwe-errors', '0');
})();
"""

SCRIPT = """
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) { return; }
    var node = target;
    while (node) {
      if (node.tagName === 'DETAILS') { node.open = true; }
      node = node.parentElement;
    }
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  var filter = document.getElementById('only-problems');
  if (filter) {
    filter.addEventListener('change', function () {
      var rows = document.querySelectorAll('table.grid tr.all-green');
      for (var i = 0; i < rows.length; i++) {
        rows[i].classList.toggle('hide', filter.checked);
      }
    });
  }
  var all = document.getElementById('expand-all');
  if (all) {
    all.addEventListener('click', function () {
      var items = document.querySelectorAll('details.study');
      var open = all.getAttribute('data-open') !== '1';
      for (var i = 0; i < items.length; i++) { items[i].open = open; }
      all.setAttribute('data-open', open ? '1' : '0');
      all.textContent = open ? 'collapse all' : 'expand all';
    });
  }
  var charts = document.querySelectorAll('svg.chart').length;
  document.documentElement.setAttribute('data-rwe-charts', String(charts));
  document.documentElement.setAttribute('data-rwe-status', 'ready');
})();
"""
