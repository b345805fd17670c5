/* A results page's chart: filters by hardware, engine, precision, source and division, a switch that
 * highlights the Pareto front, and a caption that says what the hovered or focused marker is. The
 * chart is complete without this script; it only hides markers and redraws the front of what is left.
 * Record text comes from the page's JSON data and is only ever written as textContent. */
(function () {
  "use strict";

  var FIELDS = [
    ["hardware", "Hardware"],
    ["engine", "Engine"],
    ["precision", "Precision"],
    ["source", "Source"],
    ["division", "Division"],
  ];
  var SVG = "http://www.w3.org/2000/svg";

  function distinct(rows, field) {
    var seen = {};
    rows.forEach(function (row) { seen[row[field]] = true; });
    return Object.keys(seen).sort();
  }

  /* The ids of the visible rows no visible row of the same precision dominates. */
  function front(rows, shown) {
    var groups = {};
    rows.forEach(function (row, i) {
      if (!shown[i] || row.x === null) return;
      (groups[row.precision] = groups[row.precision] || []).push(i);
    });
    var onFront = {};
    Object.keys(groups).forEach(function (precision) {
      var order = groups[precision].sort(function (a, b) { return rows[b].x - rows[a].x || rows[b].y - rows[a].y; });
      var best = -Infinity, k = 0;
      while (k < order.length) {
        var x = rows[order[k]].x, top = rows[order[k]].y, same = [];
        while (k < order.length && rows[order[k]].x === x) { same.push(order[k]); k += 1; }
        if (top > best) {
          same.forEach(function (i) { if (rows[i].y === top) onFront[i] = precision; });
          best = top;
        }
      }
    });
    return onFront;
  }

  function redraw(svg, onFront, dashes) {
    Array.prototype.forEach.call(svg.querySelectorAll("polyline.front"), function (line) {
      line.parentNode.removeChild(line);
    });
    var lines = {};
    Array.prototype.forEach.call(svg.querySelectorAll("a.point"), function (a) {
      var i = a.getAttribute("data-i");
      if (onFront[i] === undefined) { a.removeAttribute("data-front"); return; }
      a.setAttribute("data-front", "1");
      (lines[onFront[i]] = lines[onFront[i]] || []).push([+a.getAttribute("data-px"), +a.getAttribute("data-py")]);
    });
    var first = svg.querySelector("a.point");
    Object.keys(lines).sort().forEach(function (precision) {
      /* a staircase, as the page draws it: down to the next point's output, then across to it */
      var points = [];
      lines[precision].sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; }).forEach(function (p) {
        if (points.length) points.push([points[points.length - 1][0], p[1]]);
        points.push(p);
      });
      var line = document.createElementNS(SVG, "polyline");
      line.setAttribute("class", "front");
      line.setAttribute("points", points.map(function (p) { return p[0] + "," + p[1]; }).join(" "));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", "currentColor");
      line.setAttribute("stroke-width", "1.5");
      if (dashes[precision]) line.setAttribute("stroke-dasharray", dashes[precision]);
      var title = document.createElementNS(SVG, "title");
      title.textContent = "Pareto front, " + precision;
      line.appendChild(title);
      svg.insertBefore(line, first);
    });
  }

  function setUp(chart) {
    var data = chart.querySelector("script.serving-data");
    var holder = chart.querySelector(".serving-filters");
    if (!data || !holder || chart.hasAttribute("data-ready")) return;
    chart.setAttribute("data-ready", "");
    var rows = JSON.parse(data.textContent);
    var dashes = {};
    Array.prototype.forEach.call(chart.querySelectorAll("polyline.front"), function (line) {
      var title = line.querySelector("title");
      if (title) dashes[title.textContent.replace("Pareto front, ", "")] = line.getAttribute("stroke-dasharray") || "";
    });
    var selects = {};
    FIELDS.forEach(function (pair) {
      var values = distinct(rows, pair[0]);
      if (values.length < 2) return;
      var label = document.createElement("label");
      label.appendChild(document.createTextNode(pair[1] + " "));
      var select = document.createElement("select");
      var all = document.createElement("option");
      all.value = "";
      all.textContent = "all";
      select.appendChild(all);
      values.forEach(function (value) {
        var option = document.createElement("option");
        option.value = value;
        option.textContent = value;
        select.appendChild(option);
      });
      label.appendChild(select);
      holder.appendChild(label);
      selects[pair[0]] = select;
      select.addEventListener("change", apply);
    });
    var highlight = document.createElement("label");
    var box = document.createElement("input");
    box.type = "checkbox";
    highlight.appendChild(box);
    highlight.appendChild(document.createTextNode(" Highlight the front"));
    holder.appendChild(highlight);
    box.addEventListener("change", function () { chart.classList.toggle("highlight-front", box.checked); });
    holder.hidden = false;

    function apply() {
      var shown = rows.map(function (row) {
        return Object.keys(selects).every(function (field) {
          var wanted = selects[field].value;
          return wanted === "" || row[field] === wanted;
        });
      });
      Array.prototype.forEach.call(chart.querySelectorAll("a.point"), function (a) {
        a.style.display = shown[+a.getAttribute("data-i")] ? "" : "none";
      });
      var hardware = selects.hardware ? selects.hardware.value : "";
      Array.prototype.forEach.call(chart.querySelectorAll("g.roof"), function (roof) {
        roof.style.display = hardware === "" || roof.getAttribute("data-hardware") === hardware ? "" : "none";
      });
      var onFront = front(rows, shown);
      Array.prototype.forEach.call(chart.querySelectorAll("svg.serving-chart"), function (svg) {
        redraw(svg, onFront, dashes);
      });
    }

    var caption = chart.querySelector(".serving-caption");
    function describe(event) {
      var a = event.target.closest ? event.target.closest("a.point") : null;
      var title = a ? a.querySelector("title") : null;
      if (caption && title) caption.textContent = title.textContent;
    }
    chart.addEventListener("mouseover", describe);
    chart.addEventListener("focusin", describe);
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".chart.serving"), setUp);
  }
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(start); /* the theme's instant navigation */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
