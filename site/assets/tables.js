/* Sortable, filterable tables: every <table data-sortable> gets header buttons that sort by that
 * column (numbers by their data-sort value, text by its words) and a filter box above it. Without
 * JavaScript the table is an ordinary table, already in a sensible order. And any table or code too
 * wide for the text column scrolls in a box that fits the window. No dependencies. */
(function () {
  "use strict";

  function cellValue(row, column) {
    var cell = row.cells[column];
    if (!cell) return "";
    var sort = cell.getAttribute("data-sort");
    return sort !== null ? sort : cell.textContent.trim();
  }

  /* A number column's cell with no data-sort value is read with its unit of time, so that "18.6 s"
   * sorts above "498 ms"; thousands separators are dropped. Other units are taken as written. */
  var SECONDS = { ns: 1e-9, "µs": 1e-6, us: 1e-6, ms: 1e-3, s: 1, min: 60, h: 3600 };

  function numberOf(text) {
    var found = /^[~≈]?\s*(-?[0-9][0-9,]*(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)\s*(ns|µs|us|ms|s|min|h)?(?![a-z])/i
      .exec(String(text).trim());
    if (!found) return NaN;
    var value = parseFloat(found[1].replace(/,/g, ""));
    return found[2] ? value * SECONDS[found[2] === "µs" ? "µs" : found[2].toLowerCase()] : value;
  }

  function compare(numeric) {
    return function (a, b) {
      if (numeric) {
        var x = numberOf(a.value), y = numberOf(b.value);
        var xMissing = isNaN(x), yMissing = isNaN(y);
        if (xMissing || yMissing) return xMissing - yMissing; /* blanks last */
        return x - y;
      }
      return a.value.localeCompare(b.value, undefined, { numeric: true, sensitivity: "base" });
    };
  }

  function sortBy(table, column, header) {
    var body = table.tBodies[0];
    var descending = header.getAttribute("aria-sort") === "ascending";
    var numeric = header.getAttribute("data-type") === "number";
    var rows = Array.prototype.map.call(body.rows, function (row, index) {
      return { row: row, value: cellValue(row, column), index: index };
    });
    var order = compare(numeric);
    rows.sort(function (a, b) {
      var result = order(a, b) || a.index - b.index;
      return descending ? -result : result;
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
    rows.forEach(function (item) { body.appendChild(item.row); });
  }

  function addFilter(table) {
    var input = document.createElement("input");
    input.type = "search";
    input.className = "registry-filter";
    input.placeholder = "Filter rows";
    input.setAttribute("aria-label", "Filter the table's rows");
    var count = document.createElement("span");
    count.className = "registry-filter-count";
    count.setAttribute("aria-live", "polite");
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var text = row.textContent.toLowerCase();
        var match = words.every(function (word) { return text.indexOf(word) !== -1; });
        row.hidden = !match;
        if (match) shown += 1;
      });
      count.textContent = words.length ? shown + " of " + table.tBodies[0].rows.length + " rows" : "";
    });
    /* The theme wraps tables for scrolling; the box goes above the whole wrapper. */
    var holder = table.closest(".md-typeset__scrollwrap") || table.closest(".md-typeset__table") || table;
    holder.parentNode.insertBefore(input, holder);
    holder.parentNode.insertBefore(count, holder);
  }

  function enhance(table) {
    if (table.getAttribute("data-enhanced")) return;
    table.setAttribute("data-enhanced", "true");
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = header.textContent;
      button.title = "Sort by " + header.textContent;
      button.addEventListener("click", function () { sortBy(table, column, header); });
      header.textContent = "";
      header.appendChild(button);
    });
    addFilter(table);
  }

  /* A table wider than the theme's scrolling wrapper, or code wider than its block, gets a box no
   * taller than the window (registry.css), so that its sideways scroll bar is in sight rather than
   * below the last line; measured again when the window's width or the shown rows change. */
  var SCROLLERS = ".md-typeset__scrollwrap, .md-typeset pre, .md-typeset pre > code";

  function markWide() {
    document.querySelectorAll(SCROLLERS).forEach(function (box) {
      box.classList.toggle("registry-wide", box.scrollWidth > box.clientWidth + 1);
    });
  }

  var pending = false;
  function markWideSoon() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; markWide(); });
  }

  function enhanceAll() {
    document.querySelectorAll("table[data-sortable]").forEach(enhance);
    markWide();
  }

  window.addEventListener("resize", markWideSoon);
  document.addEventListener("input", function (event) {
    if (event.target && event.target.classList && event.target.classList.contains("registry-filter")) {
      markWideSoon();
    }
  });

  /* Material's instant navigation (if ever enabled) swaps pages without a load event. */
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(enhanceAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhanceAll);
  } else {
    enhanceAll();
  }
})();
