// Placeholder until the page script lands: answers nothing.
function softpasskeyBridge(config) {
  "use strict";
  void config;
}
