/* A model page's calculator: the cache for the context, batch, KV format and engine layout the reader
 * picks, counted exactly as `registry calc` counts it, and with a hardware record, whether it fits as
 * `registry fit` answers, from the JSON the page carries (registry/results/calculator.py and
 * calculator_fit.py write it and document the rules). Integers are BigInt and bytes exact fractions.
 * Record text is only ever written with textContent. Without the data element it does nothing. */
(function () {
  "use strict";

  var data = document.getElementById("registry-calculator-data");
  if (!data) return;
  var model = JSON.parse(data.textContent), root = data.parentNode;
  function $(name) { return root.querySelector(".calculator-" + name); }
  var form = $("form"), result = $("result"), problem = $("problem"), figures = $("figures");
  var body = result.querySelector("table tbody"), summary = $("summary"), beyond = $("beyond");
  var fitBox = $("fit"), fitLines = $("fit-lines"), verdict = $("verdict");
  var MAX = BigInt(model.max_context), LIMIT = model.model_max === null ? null : BigInt(model.model_max);

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
  /* Bytes in the largest binary unit that keeps them >= 1, as format_bytes in registry/engine/units.py
   * writes them: whole when exact, else one decimal of the nearest double, a tie to the even digit. */
  function unit(n) {
    var i = 0;
    while (i < 5 && n >= 1n << BigInt(10 * i + 10)) i++;
    var size = 1n << BigInt(10 * i), name = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"][i];
    if (n % size === 0n) return digits(n / size) + " " + name;
    var x = Number(n) / Number(size), text = x * 4 % 4 === 1 ? Math.floor(x) + ".2" : x.toFixed(1);
    var dot = text.indexOf(".");
    return digits(BigInt(text.slice(0, dot))) + text.slice(dot) + " " + name;
  }
  function bytes(n) { return digits(n) + " B" + (n < 1024n ? "" : " (" + unit(n) + ")"); }
  function both(n) { return digits(n) + " B = " + unit(n); }
  function exactText(value) {
    return value[1] === 1n ? value[0].toString() : value[0] + "/" + value[1];
  }

  /* A context as registry reads it (parse_context): 131072, 131,072, 128K or 1M, at most the maximum. */
  function context(text) {
    var m = /^ *([1-9][0-9]{0,2}(?:,[0-9]{3})+|[1-9][0-9]*) *([kKmM]?) *$/.exec(text);
    if (!m) return null;
    var n = BigInt(m[1].replace(/,/g, "")) * { "": 1n, k: 1024n, m: 1048576n }[m[2].toLowerCase()];
    return n <= MAX ? n : null;
  }
  function whole(input) {
    var text = input.value.trim();
    if (!/^[0-9]+$/.test(text)) return null;
    var n = BigInt(text);
    return n >= 1n && n <= MAX ? n : null;
  }

  function show(message) {
    problem.textContent = message;
    problem.hidden = !message;
    [summary, figures, body.parentNode, fitBox].forEach(function (part) { part.hidden = !!message; });
  }
  function plural(n, word) { return digits(n) + " " + word + (n === 1n ? "" : "s"); }

  /* registry fit's answer (registry/results/fit.py): the lines of its derivation, without calc's. */
  function fit(groups, t, batch, units, hardware, weights) {
    var device = fraction(hardware.device_bytes), memory = units * BigInt(hardware.devices) * device[0] / device[1];
    var w = weights.bytes === null ? null : BigInt(weights.bytes), room = memory - (w || 0n);
    var lines = [["memory", both(memory)],
      ["weights", w === null ? "not subtracted (no parameter count)" : both(w)],
      ["room for the cache", room >= 0n ? "memory − weights = " + both(room)
        : "none, the weights alone exceed the memory by " + unit(-room)]];
    if (LIMIT && t > LIMIT) lines.push(["context", digits(t) + " tokens, beyond the model's maximum of " + digits(LIMIT) + " tokens"]);
    if (typeof groups === "string") return { lines: lines.concat([["cache", "not computable (" + groups + ")"]]) };
    function total(n, b) { return count(groups, n, b).sums.total; }
    var one = total(t, 1n), cache = one * batch, fits = cache <= room;
    var largest = one ? (room > 0n ? room : 0n) / one : 0n;
    lines.push(["one sequence of " + digits(t) + " tokens", both(one)],
      ["batch " + digits(batch), digits(batch) + " × " + digits(one) + " B = " + both(cache) +
        (fits ? " ≤ room: fits" : " > room: does not fit")],
      ["largest batch at " + digits(t) + " tokens", "⌊" + digits(room) + " ÷ " + digits(one) + "⌋ = " + digits(largest)]);
    var top = LIMIT || MAX, longest = 0n, limit = "", at, text;
    if (total(top, batch) <= room) {
      longest = top;
      limit = LIMIT ? "the model's maximum context" : total(top, batch) > total(top / 2n || 1n, batch) ?
        "the registry's largest context" : "the cache stops growing";
    } else if (total(1n, batch) <= room) {
      var high = top;
      longest = 1n;
      while (high - longest > 1n) {
        var middle = (longest + high) / 2n;
        if (total(middle, batch) <= room) longest = middle; else high = middle;
      }
    }
    if (longest === 0n) text = "none: the cache of one token does not fit";
    else {
      at = digits(total(longest, batch)) + " B ≤ room";
      text = limit === "the cache stops growing" ? "any: the cache stops growing (" + at + ")"
        : limit ? digits(longest) + " tokens, " + limit + " (" + at + ")"
        : digits(longest) + " tokens (" + at + "; " + digits(longest + 1n) + " tokens need " +
          digits(total(longest + 1n, batch)) + " B)";
    }
    lines.push(["longest context at batch " + digits(batch), text]);
    return { lines: lines, fits: fits, weightsFit: room >= 0n, largest: largest, one: one, cache: cache };
  }

  function update() {
    var f = form.elements, t = context(f.context.value), batch = whole(f.batch), units = whole(f.count);
    var layout = f.layout.value, kv = f.kv.value, weights = model.weights[f.weights.value];
    var name = f.hardware.value, hardware = model.hardware[name];
    var layouts = weights.variant ? model.variants[weights.variant] : model.layouts;
    var extra = (f.weights.value ? " --weights " + f.weights.value : "") + " --kv-dtype " + kv + " --layout " + layout;
    beyond.hidden = true;
    if (t === null || batch === null || units === null) {
      show("Context is written 131072, 131,072, 128K or 1M, up to " + digits(MAX) +
        " tokens; batch and units are whole numbers from 1 to " + digits(MAX) + ".");
      return;
    }
    var settings = " --context " + t + " --batch " + batch;
    $("calc").textContent = "registry calc --model " + model.model + settings + extra;
    if (LIMIT && t > LIMIT) {
      beyond.textContent = digits(t) + " tokens is beyond the model's maximum of " + digits(LIMIT) +
        " tokens: no sequence this long runs on it.";
      beyond.hidden = false;
    }
    var groups = layouts[layout].kv[kv];
    show(typeof groups === "string" ? "No figure for " + layout + " with a " + kv + " KV cache: " + groups : "");
    fitBox.hidden = !hardware;
    if (hardware) {
      var answer = fit(groups, t, batch, units, hardware, weights), on = digits(units) + " × " + hardware.name;
      $("fit-command").textContent = "registry fit --model " + model.model + " --hardware " + name +
        " --count " + units + settings + extra;
      fitLines.textContent = "";
      answer.lines.forEach(function (line) {
        fitLines.appendChild(document.createElement("dt")).textContent = line[0];
        fitLines.appendChild(document.createElement("dd")).textContent = line[1];
      });
      verdict.textContent = (answer.one === undefined ? "No answer: the cache is not computable." :
        !answer.weightsFit ? "Does not fit: the weights alone exceed the memory of " + on + "." :
        (answer.fits ? "Fits: the weights and " : "Does not fit: the weights fit, but not ") + "the cache of " +
        plural(batch, "sequence") + " of " + digits(t) + " tokens on " + on + "; " +
        plural(answer.largest, "sequence") + " of this context fit" + (beyond.hidden ? "." :
        ", but the model runs no sequence this long."));
      $("weights").textContent = "Weights: " + weights.says + ".";
      verdict.setAttribute("data-fits", String(!!answer.fits));
      fitBox.hidden = false;
    }
    if (typeof groups === "string") return;
    summary.textContent = model.name + ": " + plural(batch, "sequence") + " of " + digits(t) + " tokens, " + kv +
      " KV cache, laid out as " + layouts[layout].title + ".";
    var counted = count(groups, t, batch);
    Array.prototype.forEach.call(figures.querySelectorAll("dd"), function (cell) {
      var figure = cell.getAttribute("data-figure"), value = counted.sums[figure], perToken = figure === "per-token";
      cell.setAttribute("data-bytes", perToken ? exactText(value) : value.toString());
      cell.textContent = !perToken ? bytes(value) : value[1] === 1n ? bytes(value[0]) : exactText(value) + " B";
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
  $("static").hidden = true;
  form.hidden = false;
  result.hidden = false;
  update();
})();
