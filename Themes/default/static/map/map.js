/* gallerygen's map of places (map: true): the world of static/map/world.js
   (Natural Earth, in Web Mercator's 256-unit square) with a marker per place,
   the places clustered per zoom level at build time (data-map). Drag, wheel,
   pinch, the buttons and the keyboard (arrows, + and -, 0) move and zoom;
   a marker is a link to its place's page, a cluster a button that lists
   its places (links) with a way to zoom in until it parts. Nothing is fetched from outside the site, unless the site
   asked for online tiles (data-tiles). No dependencies. */
(function () {
  "use strict";
  var box = document.querySelector(".map[data-map]");
  var NS = "http://www.w3.org/2000/svg";
  var MAX_LEVEL = 12;
  window.gallerygenWorld = function (land) { if (box) start(land); };

  function start(land) {
    var data = JSON.parse(box.getAttribute("data-map"));
    var tiles = box.getAttribute("data-tiles");
    var svg = box.querySelector(".map-canvas");
    box.hidden = false;
    var width = 1, height = 1;
    var view = { x: 128, y: 128, s: 1 };      // centre (world units) and scale (px a unit)
    var levelShown = -1;

    function el(name, attributes) {
      var node = document.createElementNS(NS, name);
      for (var key in attributes) node.setAttribute(key, attributes[key]);
      return node;
    }
    var tileLayer = el("g", { "class": "map-tiles", "aria-hidden": "true" });
    var landLayer = el("g", { "class": "map-land" + (tiles ? " map-land-over-tiles" : ""), transform: "scale(.01)", "aria-hidden": "true" });
    landLayer.appendChild(el("path", { d: land, "vector-effect": "non-scaling-stroke" }));
    var markerLayer = el("g", { "class": "map-markers" });
    svg.appendChild(tileLayer);
    svg.appendChild(landLayer);
    svg.appendChild(markerLayer);

    function minScale() { return Math.max(width, height * 0.8) / 256; }
    function clamp() {
      view.s = Math.max(minScale(), Math.min(Math.pow(2, MAX_LEVEL + 1) * 0.999, view.s));
      var halfW = width / 2 / view.s, halfH = height / 2 / view.s;
      view.x = halfW >= 128 ? 128 : Math.max(halfW, Math.min(256 - halfW, view.x));
      view.y = halfH >= 128 ? 128 : Math.max(halfH, Math.min(256 - halfH, view.y));
    }
    function level() { return Math.max(0, Math.min(MAX_LEVEL, Math.floor(Math.log2(view.s)))); }

    /* The view that shows every place, as large as fits. */
    function fit() {
      var xs = data.places.map(function (p) { return p[0] / 100; }), ys = data.places.map(function (p) { return p[1] / 100; });
      if (!xs.length) { view = { x: 128, y: 128, s: minScale() }; return; }
      var left = Math.min.apply(null, xs), right = Math.max.apply(null, xs);
      var top = Math.min.apply(null, ys), bottom = Math.max.apply(null, ys);
      var pad = 40;
      view.x = (left + right) / 2;
      view.y = (top + bottom) / 2;
      view.s = Math.min((width - 2 * pad) / Math.max(right - left, 0.01), (height - 2 * pad) / Math.max(bottom - top, 0.01), Math.pow(2, 9));
      clamp();
    }

    function drawTiles() {
      tileLayer.textContent = "";
      if (!tiles) return;
      var z = Math.max(0, Math.min(19, Math.round(Math.log2(view.s))));
      var n = Math.pow(2, z), size = 256 / n;
      var x0 = Math.floor((view.x - width / 2 / view.s) / size), x1 = Math.floor((view.x + width / 2 / view.s) / size);
      var y0 = Math.max(0, Math.floor((view.y - height / 2 / view.s) / size)), y1 = Math.min(n - 1, Math.floor((view.y + height / 2 / view.s) / size));
      for (var tx = x0; tx <= x1; tx++) {
        for (var ty = y0; ty <= y1; ty++) {
          var wrapped = ((tx % n) + n) % n;
          tileLayer.appendChild(el("image", {
            href: tiles.replace("{z}", z).replace("{x}", wrapped).replace("{y}", ty),
            x: tx * size, y: ty * size, width: size, height: size
          }));
        }
      }
    }

    function radius(photos) { return (6 + 2.5 * Math.log2(1 + photos)) / view.s; }

    function drawMarkers() {
      var l = level();
      levelShown = l;
      markerLayer.textContent = "";
      var halfW = width / 2 / view.s + 30 / view.s, halfH = height / 2 / view.s + 30 / view.s;
      data.levels[l].forEach(function (c) {
        var x = c[0] / 100, y = c[1] / 100;
        if (Math.abs(x - view.x) > halfW || Math.abs(y - view.y) > halfH) return;
        var r = radius(c[2]);
        var node;
        if (c[3].length === 1) {
          var place = data.places[c[3][0]];
          node = el("a", { href: place[4], "class": "map-marker", "aria-label": place[3] });
          node.appendChild(el("title", {})).textContent = place[3];
        } else {
          node = el("g", { "class": "map-cluster", role: "button", tabindex: "0", "aria-label": c[4], "data-members": c[3].join(",") });
          node.appendChild(el("title", {})).textContent = c[4];
        }
        node.appendChild(el("circle", { cx: x, cy: y, r: r }));
        if (c[3].length > 1) {
          var label = el("text", { x: x, y: y, "font-size": 11 / view.s, "dy": "0.35em", "aria-hidden": "true" });
          label.textContent = c[3].length;
          node.appendChild(label);
        }
        markerLayer.appendChild(node);
      });
    }

    function draw(keepMarkers) {
      clamp();
      if (!keepMarkers) closeList(false);
      var w = width / view.s, h = height / view.s;
      svg.setAttribute("viewBox", (view.x - w / 2) + " " + (view.y - h / 2) + " " + w + " " + h);
      drawTiles();
      // Redrawn when the level changes or the view moved: positions and sizes are in world units.
      if (!keepMarkers || levelShown !== level()) drawMarkers();
      svg.setAttribute("data-level", level());
    }

    function resize() {
      var rect = svg.getBoundingClientRect();
      width = Math.max(1, rect.width);
      height = Math.max(1, rect.height);
    }

    /* Zoom by `factor` keeping the world point under (px, py) (svg pixels) in place. */
    function zoom(factor, px, py) {
      if (px === undefined) { px = width / 2; py = height / 2; }
      var wx = view.x + (px - width / 2) / view.s, wy = view.y + (py - height / 2) / view.s;
      view.s *= factor;
      clamp();
      view.x = wx - (px - width / 2) / view.s;
      view.y = wy - (py - height / 2) / view.s;
      draw(false);
    }

    function pan(dx, dy) {
      view.x -= dx / view.s;
      view.y -= dy / view.s;
      draw(false);
    }

    /* A cluster's places as a list over the map: links, and a button that zooms in. */
    var popup = null;
    function closeList(refocus) {
      if (!popup) return;
      popup.remove();
      popup = null;
      if (refocus) svg.focus();
    }
    function openList(node) {
      closeList(false);
      var members = node.getAttribute("data-members").split(",").map(Number);
      popup = document.createElement("div");
      popup.className = "map-popup";
      popup.setAttribute("role", "dialog");
      popup.setAttribute("aria-label", node.getAttribute("aria-label"));
      var list = document.createElement("ul");
      members.slice().sort(function (a, b) { return data.places[b][2] - data.places[a][2]; }).forEach(function (i) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = data.places[i][4];
        a.textContent = data.places[i][3];
        li.appendChild(a);
        list.appendChild(li);
      });
      var zoomButton = document.createElement("button");
      zoomButton.type = "button";
      zoomButton.className = "map-popup-zoom";
      zoomButton.textContent = box.getAttribute("data-zoom-label");
      zoomButton.addEventListener("click", function () { closeList(false); zoomOn(members); });
      var close = document.createElement("button");
      close.type = "button";
      close.className = "map-popup-close";
      close.setAttribute("aria-label", box.getAttribute("data-close-label"));
      close.textContent = "×";
      close.addEventListener("click", function () { closeList(true); });
      popup.appendChild(close);
      popup.appendChild(list);
      popup.appendChild(zoomButton);
      popup.addEventListener("keydown", function (e) { if (e.key === "Escape") { e.preventDefault(); closeList(true); } });
      box.appendChild(popup);
      list.querySelector("a").focus();
    }

    /* Zoom on a cluster's places, to the first level at which they part. */
    function zoomOn(members) {
      var x = 0, y = 0, photos = 0;
      members.forEach(function (i) { var p = data.places[i]; x += p[0] * p[2]; y += p[1] * p[2]; photos += p[2]; });
      view.x = x / photos / 100;
      view.y = y / photos / 100;
      var l = level() + 1;
      for (; l < MAX_LEVEL; l++) {
        var together = data.levels[l].some(function (c) { return c[3].length === members.length && c[3].indexOf(members[0]) >= 0; });
        if (!together) break;
      }
      view.s = Math.max(view.s * 2, Math.pow(2, l));
      draw(false);
      svg.focus();
    }

    /* Pointers: one drags, two pinch. A drag is not a click on a marker. */
    var pointers = {}, moved = 0, pinch = null;
    svg.addEventListener("pointerdown", function (e) {
      pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
      moved = 0;
      if (Object.keys(pointers).length === 2) {
        var p = Object.values(pointers);
        pinch = { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y), s: view.s };
      }
    });
    svg.addEventListener("pointermove", function (e) {
      var last = pointers[e.pointerId];
      if (!last) return;
      var dx = e.clientX - last.x, dy = e.clientY - last.y;
      moved += Math.abs(dx) + Math.abs(dy);
      if (moved > 4 && !svg.hasPointerCapture(e.pointerId)) svg.setPointerCapture(e.pointerId);
      pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
      var ids = Object.keys(pointers);
      if (ids.length === 2 && pinch) {
        var p = Object.values(pointers), rect = svg.getBoundingClientRect();
        var d = Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y);
        zoom(pinch.s * d / Math.max(1, pinch.d) / view.s, (p[0].x + p[1].x) / 2 - rect.left, (p[0].y + p[1].y) / 2 - rect.top);
      } else if (ids.length === 1) {
        pan(dx, dy);
      }
    });
    function up(e) {
      delete pointers[e.pointerId];
      if (Object.keys(pointers).length < 2) pinch = null;
    }
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    svg.addEventListener("click", function (e) {
      if (moved > 4) { e.preventDefault(); return; }
      var cluster = e.target.closest && e.target.closest(".map-cluster");
      if (cluster) openList(cluster);
    });
    svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      var rect = svg.getBoundingClientRect();
      zoom(Math.exp(-Math.max(-100, Math.min(100, e.deltaY)) * 0.005), e.clientX - rect.left, e.clientY - rect.top);
    }, { passive: false });
    svg.addEventListener("keydown", function (e) {
      var cluster = e.target.closest && e.target.closest(".map-cluster");
      if (cluster && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); openList(cluster); return; }
      if (e.key === "Escape" && popup) { e.preventDefault(); closeList(true); return; }
      var step = 80;
      switch (e.key) {
        case "ArrowLeft": pan(step, 0); break;
        case "ArrowRight": pan(-step, 0); break;
        case "ArrowUp": pan(0, step); break;
        case "ArrowDown": pan(0, -step); break;
        case "+": case "=": zoom(2); break;
        case "-": case "_": zoom(0.5); break;
        case "0": fit(); draw(false); break;
        default: return;
      }
      e.preventDefault();
    });
    box.querySelector(".map-zoom-in").addEventListener("click", function () { zoom(2); });
    box.querySelector(".map-zoom-out").addEventListener("click", function () { zoom(0.5); });
    box.querySelector(".map-reset").addEventListener("click", function () { fit(); draw(false); });
    window.addEventListener("resize", function () { resize(); draw(false); });

    resize();
    fit();
    draw(false);
    // For tests and for anyone who scripts the page: the view, and a way to set it.
    window.gallerygenMap = {
      view: function () { return { x: view.x, y: view.y, s: view.s, level: level() }; },
      zoom: zoom, pan: pan, zoomOn: zoomOn
    };
  }
})();
