/* Neighbour preloads: the photo this page shows comes first. Its
   neighbours' previews (next, previous, the one after next) are listed in a
   <template> in the head, and become <link rel="preload"> only once the
   photo has arrived (or failed): on a slow phone they would otherwise share
   its bandwidth and hold it back. The next page then opens from the cache. */
(function () {
  "use strict";
  var started = false;
  function preload() {
    var list = document.getElementById("neighbour-preloads");
    if (started || !list || !list.content) return;
    started = true;
    document.head.appendChild(document.importNode(list.content, true));
  }
  function afterPhoto() {
    var photo = document.querySelector(".photo img");
    if (photo && !photo.complete) {
      photo.addEventListener("load", preload);
      photo.addEventListener("error", preload);
    } else if (photo || document.readyState === "complete") {
      preload();
    } else {
      window.addEventListener("load", preload);  // a video page: after its poster
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", afterPhoto);
  else afterPhoto();
})();
