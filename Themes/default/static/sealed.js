/* gallerygen private albums. A private album's pages are published encrypted
   (AES-256-GCM, the key derived from its passphrase with PBKDF2-HMAC-SHA256),
   and so is every file they show. This script asks for the passphrase (or
   takes the key this tab opened the album with before: sessionStorage, gone
   with the tab), decrypts the page in place with WebCrypto, and gives its
   images and videos blob: URLs, loading each sealed file only when it is
   needed. A sealed file is a script that hands its bytes to
   gallerygenSealed(), so this works from file:// as from any server.
   The viewer and continuous pages call window.gallerygenUnseal on the pages
   they fetch, and every media address set later is opened here too.
   Hand-written, no dependencies. */
(function () {
  "use strict";
  var t = window.gallerygenText || function (key) { return key; };
  var carrier = document.getElementById("gallerygen-sealed");
  var vault = /(?:^|\/)sealed\/([0-9a-f]{16})\/[0-9a-f]{32}\.(?:html|js)(?:[?#]|$)/;
  var sealedFile = /(?:^|\/)sealed\/[0-9a-f]{16}\/([0-9a-f]{32})\.js$/;
  var key = null;                  // the album's AES-GCM key, once known
  var loads = {};                  // sealed file name -> Promise of its bytes' blob: URL
  var waiting = {};                // sealed file name -> resolve, until its script runs
  var encoder = new TextEncoder();

  function token(url) { var m = vault.exec(new URL(url, location.href).pathname); return m ? m[1] : null; }
  function nameOf(url) { var m = sealedFile.exec(new URL(url, document.baseURI).pathname); return m ? m[1] : null; }
  function isSealed(value) {
    return !!value && value.split(",").some(function (part) { return !!nameOf(part.trim().split(/\s+/)[0] || ""); });
  }
  function pageName(url) { return new URL(url, location.href).pathname.split("/").pop().replace(/\.html$/, ""); }

  function fromBase64(text) {
    return fetch("data:application/octet-stream;base64," + text).then(function (r) { return r.arrayBuffer(); });
  }

  function open(bytes, name) {
    var data = new Uint8Array(bytes);
    return crypto.subtle.decrypt({ name: "AES-GCM", iv: data.subarray(0, 12), additionalData: encoder.encode(name) },
                                 key, data.subarray(12));
  }

  /* The sealed file at `url` as a blob: URL, loaded once. */
  window.gallerygenSealed = function (name, text) {
    var resolve = waiting[name];
    delete waiting[name];
    if (resolve) resolve(text);
  };
  function load(url) {
    var name = nameOf(url);
    if (!name) return Promise.resolve(url);
    if (!loads[name]) {
      loads[name] = new Promise(function (resolve, reject) {
        waiting[name] = resolve;
        var script = document.createElement("script");
        script.src = new URL(url, document.baseURI).href;
        script.onerror = function () { delete loads[name]; reject(new Error("cannot load " + url)); };
        script.onload = function () { script.remove(); };
        document.head.appendChild(script);
      }).then(fromBase64).then(function (bytes) { return open(bytes, name); }).then(function (plain) {
        return URL.createObjectURL(new Blob([plain]));
      });
    }
    return loads[name];
  }

  /* The srcset candidate for an element `cssWidth` CSS px wide: the smallest
     at least that wide on this screen, else the largest. */
  function pick(srcset, cssWidth) {
    var best = null, largest = null, needed = Math.max(1, cssWidth) * (window.devicePixelRatio || 1);
    srcset.split(",").forEach(function (part) {
      var bits = part.trim().split(/\s+/);
      if (!bits[0]) return;
      var w = parseInt(bits[1], 10) || 0;
      if (!largest || w > largest.w) largest = { url: bits[0], w: w };
      if (w >= needed && (!best || w < best.w)) best = { url: bits[0], w: w };
    });
    return (best || largest || { url: "" }).url;
  }
  function widthOf(el) {
    var w = el.getBoundingClientRect().width;
    return w || parseInt(el.getAttribute("width"), 10) || window.innerWidth;
  }

  /* Gives `el` the plain bytes of what its attribute names; `unset`: the
     address is not set on the element (a lazily woken one), so nothing can
     have changed it meanwhile. */
  function reveal(el, attribute, value, unset) {
    var url = attribute === "srcset" ? pick(value, widthOf(el.tagName === "SOURCE" && el.parentNode ? el.parentNode : el)) : value;
    load(url).then(function (plain) {
      if (!unset && el.getAttribute(attribute) !== value) return;   // changed meanwhile
      if (attribute === "srcset") {
        el.removeAttribute("srcset");
        el.setAttribute(el.tagName === "SOURCE" ? "srcset" : "src", plain);
      } else {
        el.setAttribute(attribute, plain);
      }
    }).catch(function () {});
  }

  /* Elements of a decrypted page do not fetch their sealed files as they are
     inserted: their addresses wait in data-sealed-* until they come near the
     screen (a page of sixty photos opens sixty thumbnails, not every size). */
  var nearby = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting) return;
      nearby.unobserve(entry.target);
      if (entry.target.gallerygenWake) entry.target.gallerygenWake();
    });
  }, { rootMargin: "800px 0px" }) : null;

  /* The elements under `root` (itself included) whose sealed addresses wait. */
  function unopened(root) {
    var selector = "[data-sealed-src], [data-sealed-srcset], [data-sealed-poster]";
    var found = Array.prototype.slice.call(root.querySelectorAll(selector));
    if (root.matches && root.matches(selector)) found.unshift(root);
    return found;
  }

  function defuse(root) {
    var found = [];
    Array.prototype.forEach.call(root.querySelectorAll("img, source, video"), function (el) {
      ["src", "srcset", "poster"].forEach(function (attribute) {
        var value = el.getAttribute(attribute);
        if (!isSealed(value)) return;
        el.removeAttribute(attribute);
        // A Live Photo's motion loads when played (viewer.js reads data-src).
        if (attribute === "src" && el.classList.contains("live-motion")) { el.setAttribute("data-src", value); return; }
        el.setAttribute("data-sealed-" + attribute, value);
        if (found.indexOf(el) < 0) found.push(el);
      });
    });
    return found;
  }
  function wake(el) {
    ["srcset", "src", "poster"].forEach(function (attribute) {
      var value = el.getAttribute("data-sealed-" + attribute);
      if (!value) return;
      el.removeAttribute("data-sealed-" + attribute);
      reveal(el, attribute, value, true);
    });
  }
  function watchLazily(elements) {
    elements.forEach(function (el) {
      // A <source> follows its <img>; a video waits for nothing.
      if (el.tagName === "SOURCE") return;
      var picture = el.parentNode && el.parentNode.tagName === "PICTURE" ? el.parentNode : null;
      var go = function () {
        if (picture) Array.prototype.forEach.call(picture.querySelectorAll("source"), function (source) {
          if (!source.media || window.matchMedia(source.media).matches) wake(source);
        });
        wake(el);
      };
      if (nearby && el.tagName === "IMG") { el.gallerygenWake = go; nearby.observe(el); } else go();
    });
  }
  /* Whatever sets a sealed address later (the viewer, continuous pages) is opened here. */
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      if (record.type === "attributes") {
        var value = record.target.getAttribute(record.attributeName);
        if (isSealed(value)) reveal(record.target, record.attributeName, value);
        return;
      }
      Array.prototype.forEach.call(record.addedNodes, function (node) {
        if (node.nodeType !== 1 || node.tagName === "SCRIPT") return;
        defuse(node);
        watchLazily(unopened(node));
      });
    });
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["src", "srcset", "poster"] });

  /* A download of a sealed file: opened, then saved under the link's name. */
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || !isSealed(link.getAttribute("href"))) return;
    event.preventDefault();
    load(link.getAttribute("href")).then(function (plain) {
      var save = document.createElement("a");
      save.href = plain;
      save.download = link.getAttribute("download") || "";
      document.body.appendChild(save);
      save.click();
      save.remove();
    });
  }, true);

  /* A fetched page of the album (continuous pages, the viewer going on), decrypted. */
  function decryptPage(doc, url) {
    var sealed = doc.getElementById("gallerygen-sealed");
    if (!sealed) return Promise.resolve(doc);
    if (!key) return Promise.reject(new Error("locked"));
    return fromBase64(sealed.textContent.trim()).then(function (bytes) { return open(bytes, pageName(url)); }).then(function (plain) {
      var page = new DOMParser().parseFromString(new TextDecoder().decode(plain), "text/html");
      defuse(page);
      return page;
    });
  }
  window.gallerygenUnseal = decryptPage;
  /* A sealed file's opened address (a Promise of a blob: URL), or null for a public one. */
  window.gallerygenOpenFile = function (url) { return key && isSealed(url) ? load(url) : null; };
  /* The viewer's neighbours, opened ahead at the screen's width; false for a public page's. */
  window.gallerygenPreload = function (srcset) {
    if (!key || !isSealed(srcset)) return false;
    load(pick(srcset, window.innerWidth)).catch(function () {});
    return true;
  };

  function importKey(raw) {
    return crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, true, ["decrypt"]);
  }
  function derive(passphrase, salt, iterations) {
    return crypto.subtle.importKey("raw", encoder.encode(passphrase), "PBKDF2", false, ["deriveBits"]).then(function (material) {
      return crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: salt, iterations: iterations }, material, 256);
    });
  }

  /* Puts the decrypted page in place of the locked one and starts its scripts. */
  function show(page) {
    document.title = page.title;
    var main = document.querySelector("main"), theirs = page.querySelector("main");
    if (!main || !theirs) return;
    Array.prototype.forEach.call(page.querySelectorAll('head link[rel="next"], head link[rel="prev"]'), function (link) {
      document.head.appendChild(document.importNode(link, true));
    });
    var fresh = document.importNode(theirs, true);
    main.replaceWith(fresh);
    Array.prototype.forEach.call(page.querySelectorAll("body script[src]"), function (old) {
      var src = old.getAttribute("src");
      if (/(?:^|\/)(?:sealed|strings)\.js$/.test(src)) return;
      var script = document.createElement("script");
      script.src = src;
      script.async = false;
      document.body.appendChild(script);
    });
    var target = null;
    try {   // a hand-typed fragment may not decode
      if (location.hash.length > 1 && location.hash.indexOf("=") < 0) target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    } catch (e) { target = null; }
    if (target) target.scrollIntoView();
    else { var heading = fresh.querySelector("h1"); if (heading) { heading.tabIndex = -1; heading.focus({ preventScroll: true }); } }
  }

  if (!carrier) return;
  var form = document.querySelector(".locked-form");
  var status = document.querySelector(".locked-status");
  var album = token(location.href);
  var storageKey = "gallerygen-key-" + album;
  var salt = Uint8Array.from(atob(carrier.getAttribute("data-salt")), function (c) { return c.charCodeAt(0); });
  var iterations = parseInt(carrier.getAttribute("data-iterations"), 10);

  function unlock(raw) {
    return importKey(raw).then(function (candidate) {
      key = candidate;
      return decryptPage(document, location.href);
    }).then(function (page) {
      try { sessionStorage.setItem(storageKey, btoa(String.fromCharCode.apply(null, new Uint8Array(raw)))); } catch (e) { /* storage off */ }
      show(page);
    }, function (error) {
      key = null;
      throw error;
    });
  }

  function ask() {
    form.hidden = false;
    var input = form.querySelector("input");
    if (!window.crypto || !crypto.subtle) { status.textContent = t("locked_needs_https"); return; }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      status.textContent = t("locked_opening");
      form.setAttribute("aria-busy", "true");
      derive(input.value, salt, iterations).then(unlock).catch(function () {
        form.removeAttribute("aria-busy");
        status.textContent = t("locked_wrong");
        input.select();
        input.focus();
      });
    });
    input.focus();
  }

  var kept = null;
  try { kept = sessionStorage.getItem(storageKey); } catch (e) { /* storage off */ }
  if (kept && window.crypto && crypto.subtle) {
    unlock(Uint8Array.from(atob(kept), function (c) { return c.charCodeAt(0); }).buffer).catch(function () {
      try { sessionStorage.removeItem(storageKey); } catch (e) { /* storage off */ }
      ask();
    });
  } else {
    ask();
  }
})();
