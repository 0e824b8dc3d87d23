/**
 * /link.js: the embeddable opener. A host page calls
 *   Ledgerport.open({ linkUrl, onSuccess(publicToken) {…}, onExit() {…} })
 * which opens the flow in a centred popup (mode=popup, origin = the host page's
 * origin). The popup's completion page posts the public token to that origin
 * only; here a message is accepted only from the popup itself, from the link
 * URL's origin, with the expected type, and onSuccess runs at most once.
 * Plain ES5 so it runs on any page without a build step.
 */
export const LINK_SCRIPT = `/* Ledgerport link opener */
(function () {
  'use strict';
  var WIDTH = 480;
  var HEIGHT = 720;

  function features() {
    var left = Math.max(0, (window.screenX || 0) + ((window.outerWidth || WIDTH) - WIDTH) / 2);
    var top = Math.max(0, (window.screenY || 0) + ((window.outerHeight || HEIGHT) - HEIGHT) / 2);
    return 'popup=yes,width=' + WIDTH + ',height=' + HEIGHT + ',left=' + Math.round(left) + ',top=' + Math.round(top);
  }

  function open(options) {
    if (!options || typeof options.linkUrl !== 'string') throw new TypeError('Ledgerport.open needs { linkUrl }');
    var url = new URL(options.linkUrl, window.location.href);
    url.searchParams.set('mode', 'popup');
    url.searchParams.set('origin', window.location.origin);
    var finished = false;
    var popup = window.open(url.href, 'ledgerport_link', features());

    function end() {
      finished = true;
      window.removeEventListener('message', onMessage);
      window.clearInterval(timer);
    }
    function exit(reason) {
      if (finished) return;
      end();
      if (typeof options.onExit === 'function') options.onExit({ reason: reason });
    }
    function onMessage(event) {
      if (finished || event.origin !== url.origin || event.source !== popup) return;
      var data = event.data;
      if (!data || data.type !== 'ledgerport:success' || typeof data.public_token !== 'string') return;
      end();
      if (typeof options.onSuccess === 'function') options.onSuccess(data.public_token);
    }

    if (!popup) {
      // Blocked: open() must run inside a click handler.
      window.setTimeout(function () { exit('popup_blocked'); }, 0);
      return { close: function () {} };
    }
    window.addEventListener('message', onMessage);
    var timer = window.setInterval(function () {
      // A short grace period lets a success message posted just before closing arrive first.
      if (popup.closed) window.setTimeout(function () { exit('closed'); }, 250);
    }, 400);
    popup.focus();
    return {
      close: function () {
        if (!popup.closed) popup.close();
        exit('closed');
      },
    };
  }

  window.Ledgerport = { open: open };
})();
`;
