/* Placeholders: every image with a data-ph attribute (a ThumbHash, the
   photo's colours and shape in about 25 bytes, inlined in the page) gets a
   soft sketch of the photo as its background until the photo itself has
   arrived; then the background is taken away (a transparent PNG must not
   show it). An image that fails keeps its sketch. Nothing moves: the image already has its width and height. */
(function () {
  "use strict";

  /* A ThumbHash as a small RGBA picture: its average colour, and the cosine
     terms of lightness, two colour differences and alpha summed back up. */
  function decode(hash) {
    var h24 = hash[0] | hash[1] << 8 | hash[2] << 16, h16 = hash[3] | hash[4] << 8;
    var lDC = (h24 & 63) / 63, pDC = ((h24 >> 6) & 63) / 31.5 - 1, qDC = ((h24 >> 12) & 63) / 31.5 - 1;
    var lScale = ((h24 >> 18) & 31) / 31, hasAlpha = h24 >> 23;
    var pScale = ((h16 >> 3) & 63) / 63, qScale = ((h16 >> 9) & 63) / 63, landscape = h16 >> 15;
    var lx = Math.max(3, landscape ? (hasAlpha ? 5 : 7) : h16 & 7);
    var ly = Math.max(3, landscape ? h16 & 7 : (hasAlpha ? 5 : 7));
    var aDC = hasAlpha ? (hash[5] & 15) / 15 : 1, aScale = (hash[5] >> 4) / 15;
    var start = hasAlpha ? 6 : 5, index = 0;
    function terms(nx, ny, scale) {
      var ac = [];
      for (var cy = 0; cy < ny; cy++) {
        for (var cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++, index++) {
          ac.push((((hash[start + (index >> 1)] >> ((index & 1) << 2)) & 15) / 7.5 - 1) * scale);
        }
      }
      return ac;
    }
    var lAC = terms(lx, ly, lScale), pAC = terms(3, 3, pScale * 1.25), qAC = terms(3, 3, qScale * 1.25);
    var aAC = hasAlpha ? terms(5, 5, aScale) : null;
    // 32 pixels on the long side is plenty: the browser smooths it up.
    var ratio = lx / ly, w = Math.round(ratio > 1 ? 32 : 32 * ratio), h = Math.round(ratio > 1 ? 32 / ratio : 32);
    var rgba = new Uint8ClampedArray(w * h * 4), fx = [], fy = [], n = Math.max(lx, ly, hasAlpha ? 5 : 3);
    function sum(ac, nx, ny) {
      var value = 0;
      for (var cy = 0, j = 0; cy < ny; cy++) {
        for (var cx = cy ? 0 : 1, fy2 = fy[cy] * 2; cx * ny < nx * (ny - cy); cx++, j++) value += ac[j] * fx[cx] * fy2;
      }
      return value;
    }
    for (var y = 0, i = 0; y < h; y++) {
      for (var c = 0; c < n; c++) fy[c] = Math.cos(Math.PI / h * (y + 0.5) * c);
      for (var x = 0; x < w; x++, i += 4) {
        for (c = 0; c < n; c++) fx[c] = Math.cos(Math.PI / w * (x + 0.5) * c);
        var l = lDC + sum(lAC, lx, ly), p = pDC + sum(pAC, 3, 3), q = qDC + sum(qAC, 3, 3);
        var b = l - 2 / 3 * p, r = (3 * l - b + q) / 2;
        rgba[i] = 255 * r;
        rgba[i + 1] = 255 * (r - q);
        rgba[i + 2] = 255 * b;
        rgba[i + 3] = 255 * (aAC ? aDC + sum(aAC, 5, 5) : 1);
      }
    }
    return { w: w, h: h, rgba: rgba };
  }

  var canvas = document.createElement("canvas");
  var context = canvas.getContext && canvas.getContext("2d");

  function sketch(img) {
    var text = img.getAttribute("data-ph");
    img.removeAttribute("data-ph");
    if (!context || img.complete && img.naturalWidth) return;
    try {
      var bytes = atob(text), hash = [];
      for (var k = 0; k < bytes.length; k++) hash.push(bytes.charCodeAt(k));
      var picture = decode(hash);
      canvas.width = picture.w;
      canvas.height = picture.h;
      context.putImageData(new ImageData(picture.rgba, picture.w, picture.h), 0, 0);
      img.style.backgroundImage = "url(" + canvas.toDataURL() + ")";
      img.classList.add("placeheld");
      // Kept if the image fails: a sketch says more than a broken image.
      img.addEventListener("load", function () { img.style.backgroundImage = ""; img.classList.remove("placeheld"); }, { once: true });
    } catch (e) { /* a damaged hash: the tile stays as it was */ }
  }

  function sketchAll(root) {
    Array.prototype.forEach.call(root.querySelectorAll("img[data-ph]"), sketch);
  }
  sketchAll(document);
  // Pages appended by pages.js, and tiles search and On this day draw.
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      Array.prototype.forEach.call(record.addedNodes, function (node) {
        if (node.nodeType !== 1) return;
        if (node.matches("img[data-ph]")) sketch(node);
        else sketchAll(node);
      });
    });
  }).observe(document.documentElement, { subtree: true, childList: true });
})();
