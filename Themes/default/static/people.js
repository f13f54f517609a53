/* The People page's filter box: shows the people whose name holds what is typed. */
(function () {
  "use strict";
  var box = document.querySelector(".people-filter");
  var input = document.getElementById("people-filter");
  var none = document.querySelector(".people-none");
  if (!box || !input) return;
  var entries = Array.prototype.slice.call(document.querySelectorAll(".people-list > li"));
  box.hidden = false;
  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  var names = entries.map(function (li) { return fold(li.getAttribute("data-name") || ""); });
  input.addEventListener("input", function () {
    var query = fold(input.value.trim());
    var shown = 0;
    entries.forEach(function (li, i) {
      var match = !query || names[i].indexOf(query) !== -1;
      li.hidden = !match;
      if (match) shown++;
    });
    if (none) none.hidden = shown > 0;
  });
})();
