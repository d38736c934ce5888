// Copy buttons on code blocks, and a wrap toggle for them on narrow screens.
// Pages read fully without this script; it only adds comfort (CSP: script-src 'self').
(function () {
  "use strict";
  var labels = document.documentElement.dataset;
  function button(text, title) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "code-tool";
    b.textContent = text;
    b.title = title;
    return b;
  }
  function copy(text, done) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () {});
      return;
    }
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { if (document.execCommand("copy")) { done(); } } finally { area.remove(); }
  }
  document.querySelectorAll("pre").forEach(function (pre) {
    var code = pre.querySelector("code") || pre;
    var tools = document.createElement("div");
    tools.className = "code-tools";
    var copyButton = button(labels.copy || "Copy", labels.copyTitle || "Copy to the clipboard");
    copyButton.addEventListener("click", function () {
      copy(code.textContent.replace(/\n…$/, ""), function () {
        copyButton.textContent = labels.copied || "Copied";
        setTimeout(function () { copyButton.textContent = labels.copy || "Copy"; }, 1500);
      });
    });
    var wrapButton = button(labels.wrap || "Wrap", labels.wrapTitle || "Wrap long lines");
    wrapButton.classList.add("wrap-toggle");
    wrapButton.setAttribute("aria-pressed", "false");
    wrapButton.addEventListener("click", function () {
      var on = pre.classList.toggle("wrapped");
      wrapButton.setAttribute("aria-pressed", on ? "true" : "false");
    });
    tools.appendChild(copyButton);
    tools.appendChild(wrapButton);
    var block = document.createElement("div");
    block.className = "code-block";
    pre.parentNode.insertBefore(block, pre);
    block.appendChild(tools);
    block.appendChild(pre);
  });
})();
