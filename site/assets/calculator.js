/* A model page's calculator: the cache for the context, batch, KV format and engine layout the reader
 * picks, counted exactly as `registry calc` counts it, from the JSON the page carries
 * (registry/results/calculator.py writes it and documents the rules). Integers are BigInt and bytes
 * exact fractions, so no figure is rounded before the engine would round it. Record text is only ever
 * written with textContent. Without the data element (every other page) it does nothing. */
(function () {
  "use strict";

  var data = document.getElementById("registry-calculator-data");
  if (!data) return;
  var model = JSON.parse(data.textContent);
  var root = data.parentNode;
  var form = root.querySelector(".calculator-form");
  var result = root.querySelector(".calculator-result");
  var problem = root.querySelector(".calculator-problem");
  var figures = root.querySelector(".calculator-figures");
  var body = result.querySelector("table tbody");
  var command = result.querySelector("code");
  var summary = root.querySelector(".calculator-summary");

  function ceil(a, b) { return (a + b - 1n) / b; }
  function gcd(a, b) { while (b) { var r = a % b; a = b; b = r; } return a; }
  function fraction(text) {
    var parts = text.split("/");
    return [BigInt(parts[0]), BigInt(parts[1] || "1")];
  }
  function add(x, y) {
    var n = x[0] * y[1] + y[0] * x[1], d = x[1] * y[1], g = gcd(n, d) || 1n;
    return [n / g, d / g];
  }

  /* How many entries a rule keeps at context t: the forms of registry/results/calculator.py. */
  function entries(rule, t) {
    var v = rule.slice(1).map(function (n) { return BigInt(n); });
    switch (rule[0]) {
      case "t": return t;
      case "one": return 1n;
      case "min": return t < v[0] ? t : v[0];
      case "chunk": return (t - 1n) % v[0] + 1n;
      case "blocks": return v[1] * ceil(t, v[0]);
      case "window":
        var skipped = t - v[1] + 1n;
        return v[2] * (ceil(t, v[0]) - (skipped > 0n ? skipped : 0n) / v[0]);
      case "chunk-blocks": return v[0] * (ceil(t, v[0]) - ((t - 1n) / v[1] * v[1]) / v[0]);
      case "pad":
        var padded = ceil(t, v[0]) * v[0];
        return v[1] ? ceil(padded < v[1] ? padded : v[1], v[0]) * v[0] : padded;
      case "floor": return t / v[0];
      case "mod": return t % v[0];
      case "from": return t < v[0] ? 0n : v[1];
    }
    throw new Error("unknown rule " + rule[0]);
  }

  function count(groups, t, batch) {
    var sums = { total: 0n, growing: 0n, window: 0n, fixed: 0n }, perToken = [0n, 1n];
    var rows = groups.map(function (group) {
      var exact = { growing: [0n, 1n], window: [0n, 1n], fixed: [0n, 1n] }, bytes = 0n;
      group.terms.forEach(function (term) {
        var cost = fraction(term[2]);
        exact[term[0]] = add(exact[term[0]], [cost[0] * entries(term[1], t), cost[1]]);
      });
      Object.keys(exact).forEach(function (part) {
        var whole = ceil(exact[part][0] * batch, exact[part][1]);
        sums[part] += whole;
        bytes += whole;
      });
      sums.total += bytes;
      perToken = add(perToken, fraction(group.growth));
      return [group.mechanism, String(group.layers), bytes];
    });
    sums["per-token"] = perToken;
    return { sums: sums, rows: rows };
  }

  function digits(n) { return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  var UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB"];
  /* Bytes as registry calc prints them: exact, then in the largest binary unit that keeps it >= 1. */
  function bytes(n) {
    var unit = "B", size = 1n;
    UNITS.forEach(function (name, i) {
      var candidate = 1n << BigInt(10 * (i + 1));
      if (n >= candidate) { unit = name; size = candidate; }
    });
    var text = digits(n) + " B";
    if (unit === "B") return text;
    var scaled = n % size === 0n ? digits(n / size) : (Number(n) / Number(size)).toLocaleString("en-US",
      { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return text + " (" + scaled + " " + unit + ")";
  }
  function exactText(value) {
    return value[1] === 1n ? value[0].toString() : value[0] + "/" + value[1];
  }

  function whole(input) {
    var text = input.value.trim();
    if (!/^[0-9]+$/.test(text)) return null;
    var n = BigInt(text);
    return n >= 1n && n <= BigInt(input.max) ? n : null;
  }

  function show(message) {
    problem.textContent = message;
    problem.hidden = !message;
    summary.hidden = !!message;
    figures.hidden = !!message;
    body.parentNode.hidden = !!message; /* the table */
  }

  function update() {
    var t = whole(form.elements.context), batch = whole(form.elements.batch);
    var layout = form.elements.layout.value, kv = form.elements.kv.value;
    command.textContent = "registry calc --model " + model.model + " --context " + form.elements.context.value.trim() +
      " --batch " + form.elements.batch.value.trim() + " --kv-dtype " + kv + " --layout " + layout;
    if (t === null || batch === null) {
      show("Context and batch are whole numbers from 1 to " + digits(BigInt(form.elements.context.max)) + ".");
      return;
    }
    var groups = model.layouts[layout].kv[kv];
    if (typeof groups === "string") { show("No figure for " + layout + " with a " + kv + " KV cache: " + groups); return; }
    show("");
    summary.textContent = model.name + ": " + digits(batch) + (batch === 1n ? " sequence" : " sequences") +
      " of " + digits(t) + " tokens, " + kv + " KV cache, laid out as " + model.layouts[layout].title + ".";
    var counted = count(groups, t, batch);
    Array.prototype.forEach.call(figures.querySelectorAll("dd"), function (cell) {
      var name = cell.getAttribute("data-figure"), value = counted.sums[name];
      if (name === "per-token") {
        cell.setAttribute("data-bytes", exactText(value));
        cell.textContent = value[1] === 1n ? bytes(value[0]) : exactText(value) + " B";
      } else {
        cell.setAttribute("data-bytes", value.toString());
        cell.textContent = bytes(value);
      }
    });
    body.textContent = "";
    counted.rows.forEach(function (row) {
      var tr = body.insertRow();
      row.forEach(function (value, i) {
        var cell = tr.insertCell();
        if (i === 2) { cell.setAttribute("data-bytes", value.toString()); value = bytes(value); }
        if (i > 0) cell.className = "num";
        cell.textContent = value;
      });
    });
  }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", function (event) { event.preventDefault(); update(); });
  root.querySelector(".calculator-static").hidden = true;
  form.hidden = false;
  result.hidden = false;
  update();
})();
