/* gallerygen search: finds photos in the index made at build time (search/),
   with no server. The index files are scripts that call gallerygenSearch.…,
   so they load from file:// too, and only the parts a query needs are loaded:
   the manifest, one token file per two-letter prefix typed, and the item
   files of the results shown. Hand-written, no dependencies. */
(function () {
  "use strict";
  var grid = document.querySelector(".search-results[data-index]");
  var input = document.querySelector(".search-input");
  var status = document.querySelector(".search-status");
  if (!grid || !input) return;
  var t = window.gallerygenText || function (key) { return key; };

  var PAGE = 40;                         // results shown at first, and added by "Show more"
  var shownCount = PAGE;
  var more = document.createElement("button");
  more.type = "button";
  more.className = "search-more";
  more.textContent = t("show_more");
  more.hidden = true;
  grid.parentNode.insertBefore(more, grid.nextSibling);
  var indexURL = new URL(grid.getAttribute("data-index"), location.href);
  var root = new URL("..", indexURL);    // the site root: index paths are relative to it
  var manifest = null;
  var shards = {};                       // prefix hex -> {token: "gaps"} once loaded
  var docs = {};                         // item file ("slot-part") -> [item, …] once loaded
  var pending = {};                      // script URL -> [callbacks]
  var generation = 0;                    // the latest query; older answers are dropped

  window.gallerygenSearch = {
    manifest: function (m) { manifest = m; manifest.known = {}; m.shards.forEach(function (h) { manifest.known[h] = true; }); },
    tokens: function (hex, table) { shards[hex] = table; },
    docs: function (file, list) { docs[file] = list; }
  };

  function load(url, done) {
    if (pending[url]) { pending[url].push(done); return; }
    pending[url] = [done];
    var script = document.createElement("script");
    script.src = url;
    script.onload = script.onerror = function () {
      var callbacks = pending[url];
      pending[url] = [];
      callbacks.forEach(function (f) { f(); });
    };
    document.head.appendChild(script);
  }

  function loadAll(urls, done) {
    var left = urls.length;
    if (!left) return done();
    urls.forEach(function (url) { load(url, function () { if (--left === 0) done(); }); });
  }

  /* The same folding as the index: lower case, accents off, letters and digits. */
  function tokens(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  }

  function hex(text) {
    return Array.prototype.map.call(new TextEncoder().encode(text), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function decode(gaps) {
    var n = 0;
    return gaps.split(",").map(function (g) { n += parseInt(g, 36); return n; });
  }

  /* Items whose words start with `word`, as a sorted list of numbers. */
  function matches(word) {
    var table = shards[hex(Array.from(word).slice(0, 2).join(""))] || {};
    var found = {};
    Object.keys(table).forEach(function (token) {
      if (token.lastIndexOf(word, 0) === 0) decode(table[token]).forEach(function (n) { found[n] = true; });
    });
    return Object.keys(found).map(Number).sort(function (a, b) { return a - b; });
  }

  function intersect(lists) {
    return lists.reduce(function (acc, list) {
      var set = {};
      list.forEach(function (n) { set[n] = true; });
      return acc.filter(function (n) { return set[n]; });
    });
  }

  /* Place pages whose names hold every word of the query (as word starts). */
  var placeList = document.createElement("ul");
  placeList.className = "search-places";
  placeList.hidden = true;
  grid.parentNode.insertBefore(placeList, grid);
  function showPlaces(words) {
    placeList.textContent = "";
    var found = (manifest && manifest.places || []).filter(function (p) {
      var own = p[0].split(" ");
      return words.every(function (w) { return own.some(function (o) { return o.lastIndexOf(w, 0) === 0; }); });
    }).slice(0, 12);
    found.forEach(function (p) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = abs(p[2]);
      a.textContent = p[1];
      li.appendChild(a);
      placeList.appendChild(li);
    });
    placeList.hidden = !found.length;
  }

  function search(keepCount) {
    var query = input.value;
    if (!keepCount) shownCount = PAGE;
    var words = tokens(query).filter(function (w) { return Array.from(w).length >= 2 || /^\p{N}$/u.test(w); });
    var mine = ++generation;
    if (history.replaceState) history.replaceState(null, "", "?q=" + encodeURIComponent(query));
    if (!words.length) { grid.textContent = ""; placeList.hidden = true; status.textContent = query ? t("too_short") : ""; return; }
    if (!manifest) { status.textContent = t("index_failed"); return; }
    showPlaces(words);
    var prefixes = words.map(function (w) { return hex(Array.from(w).slice(0, 2).join("")); });
    var needed = prefixes.filter(function (h, i) { return manifest.known[h] && !shards[h] && prefixes.indexOf(h) === i; });
    loadAll(needed.map(function (h) { return new URL("t-" + h + ".js", indexURL).href; }), function () {
      if (mine !== generation) return;
      var results = intersect(words.map(matches));
      var shown = results.slice(0, shownCount);
      var files = [];
      shown.forEach(function (n) { var f = itemFile(n).file; if (!docs[f] && files.indexOf(f) < 0) files.push(f); });
      loadAll(files.map(function (f) { return new URL("d-" + f + ".js", indexURL).href; }), function () {
        if (mine !== generation) return;
        render(shown, results.length);
      });
    });
  }

  /* Item n is number n % month of its month (slot n / month), in the month's
     file of `chunk` items: "slot-part", and its place there. */
  function itemFile(n) {
    var slot = Math.floor(n / manifest.month), place = n - slot * manifest.month;
    return { file: slot + "-" + Math.floor(place / manifest.chunk), index: place % manifest.chunk };
  }

  function abs(path) { return path ? new URL(path, root).href : ""; }
  function absSrcset(srcset) {
    return srcset.split(", ").filter(Boolean).map(function (part) {
      var bits = part.split(" ");
      return abs(bits[0]) + " " + bits[1];
    }).join(", ");
  }

  /* Results as the grid every album uses, so the viewer opens them. */
  function render(numbers, total) {
    grid.textContent = "";
    numbers.forEach(function (n, position) {
      var at = itemFile(n), d = (docs[at.file] || [])[at.index];
      if (!d) return;
      // [page, thumbnail srcset, width, height, preview srcset, width, height, alt, caption line, video, live]
      var li = document.createElement("li");
      li.style.setProperty("--grow", (d[2] / Math.max(1, d[3])).toFixed(4));
      var a = document.createElement("a");
      a.href = abs(d[0]);
      a.setAttribute("data-srcset", absSrcset(d[4]));
      a.setAttribute("data-width", d[5]);
      a.setAttribute("data-height", d[6]);
      a.setAttribute("data-facts", "[]");
      if (d[8]) a.setAttribute("data-caption", d[8]);
      if (d[9]) a.setAttribute("data-video", abs(d[9]));
      if (d[10]) a.setAttribute("data-live", "true");
      var img = document.createElement("img");
      img.src = abs(d[1].split(" ")[0]);
      img.srcset = absSrcset(d[1]);
      img.width = d[2];
      img.height = d[3];
      img.alt = d[7];
      img.decoding = "async";
      if (position >= 12) img.loading = "lazy";
      a.appendChild(img);
      li.appendChild(a);
      grid.appendChild(li);
    });
    status.textContent = total === 0 ? t("nothing_found") :
      t("found", total) + (total > numbers.length ? " " + t("first_shown", numbers.length) : "");
    more.hidden = total <= numbers.length;
    if (window.gallerygenViewer) window.gallerygenViewer.refresh();
  }

  more.addEventListener("click", function () { shownCount += PAGE * 2; search(true); });

  var timer = null;
  input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { search(false); }, 120); });
  input.form.addEventListener("submit", function (event) { event.preventDefault(); clearTimeout(timer); search(false); });
  var initial = new URLSearchParams(location.search).get("q");
  if (initial) input.value = initial;
  load(indexURL.href, function () { if (input.value) search(false); });
})();
