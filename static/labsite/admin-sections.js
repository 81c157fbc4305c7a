// The person editor's list of sections: following a link opens that (collapsed) section,
// and "+ Add …" also adds an empty row to it and puts the cursor in its first field.
"use strict";
(function () {
  function show(hash, addRow) {
    const group = hash && document.getElementById(hash.slice(1));
    if (!group) return;
    const details = group.querySelector("details");
    if (details) details.open = true;
    const add = addRow && group.querySelector(".add-row a");
    if (add) {
      add.click();
      const rows = group.querySelectorAll(".dynamic-" + group.id.replace(/-group$/, ""));
      const field = rows.length && rows[rows.length - 1].querySelector("input:not([type=hidden]), select, textarea");
      if (field) field.focus();
    }
    group.scrollIntoView();
  }
  document.addEventListener("click", function (event) {
    const link = event.target.closest(".section-nav a[href^='#']");
    if (!link) return;
    event.preventDefault();
    history.replaceState(null, "", link.hash);
    show(link.hash, link.hasAttribute("data-add"));
  });
  window.addEventListener("load", function () { show(location.hash, false); });
})();
