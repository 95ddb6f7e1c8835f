(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('form-config').textContent);
  var form = document.getElementById('n8n-form');
  var pageUrl = new URL(window.location.href);
  var signature = pageUrl.searchParams.get('signature');
  var waitingUrl = null;
  var interval = 1000;
  var timer = null;

  function setError(el, message) {
    if (!el) return;
    if (message) { el.textContent = message; el.classList.add('error-show'); }
    else { el.classList.remove('error-show'); }
  }
  function errorOf(input) { return document.querySelector('.error-' + input.id); }
  function selected(box) {
    return Array.prototype.filter.call(box.querySelectorAll('.multiselect-checkbox'), function (c) { return c.checked; })
      .map(function (c) { return c.value.trim(); });
  }
  function plural(n) { return n === 1 ? 'option' : 'options'; }
  function checkMultiselect(box) {
    var values = selected(box);
    var d = box.dataset;
    if (box.classList.contains('form-required') && !values.length) { setError(errorOf(box), 'This field is required'); return false; }
    var exact = d.exactSelect ? parseInt(d.exactSelect, 10) : null;
    var min = d.minSelect ? parseInt(d.minSelect, 10) : null;
    var max = d.maxSelect ? parseInt(d.maxSelect, 10) : null;
    if (exact && values.length !== exact) { setError(errorOf(box), 'You must select exactly ' + exact + ' ' + plural(exact)); return false; }
    if (min && values.length < min) { setError(errorOf(box), 'You must select at least ' + min + ' ' + plural(min)); return false; }
    if (max && values.length > max) { setError(errorOf(box), 'You can select a maximum of ' + max + ' ' + plural(max)); return false; }
    setError(errorOf(box), '');
    return true;
  }
  function checkInput(input) {
    var value = (input.value || '').trim();
    if (input.type === 'email' && value !== '') {
      var ok = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/.test(value);
      setError(errorOf(input), ok ? '' : 'Enter a valid email address in this field');
      return ok;
    }
    if (input.type === 'number' && value !== '' && isNaN(value)) { setError(errorOf(input), 'Enter only numbers in this field'); return false; }
    if (input.classList.contains('form-required') && input.type !== 'file' && value === '') { setError(errorOf(input), 'This field is required'); return false; }
    if (input.type === 'file' && input.classList.contains('form-required') && !input.files.length) { setError(errorOf(input), 'This field is required'); return false; }
    setError(errorOf(input), '');
    return true;
  }
  document.querySelectorAll('.multiselect').forEach(function (box) {
    if (box.dataset.radioSelect) {
      box.querySelectorAll('.multiselect-checkbox').forEach(function (cb) {
        cb.addEventListener('change', function () {
          if (cb.checked) box.querySelectorAll('.multiselect-checkbox').forEach(function (o) { if (o !== cb) o.checked = false; });
        });
      });
    }
    box.addEventListener('click', function () { checkMultiselect(box); });
  });

  function showSubmitted(header, content) {
    form.style.display = 'none';
    document.getElementById('submitted-form').style.display = 'block';
    if (header) document.getElementById('submitted-header').textContent = header;
    var p = document.getElementById('submitted-content');
    if (content !== undefined) {
      if (!p) { p = document.createElement('p'); p.id = 'submitted-content'; document.querySelector('#submitted-form .form-header').appendChild(p); }
      p.textContent = content;
    }
  }
  function withSignature(url) {
    var u = new URL(url, window.location.href);
    if (signature && !u.searchParams.get('signature')) u.searchParams.set('signature', signature);
    return u.toString();
  }
  function pollStatus() {
    if (!interval) return;
    var u = new URL(waitingUrl || window.location.href);
    u.pathname = u.pathname + '/n8n-execution-status';
    if (signature) u.searchParams.set('signature', signature);
    fetch(u.toString()).then(function (r) { return r.text(); }).then(function (text) {
      text = text.trim();
      if (text === 'form-waiting') { window.location.assign(withSignature(waitingUrl || window.location.href)); return; }
      if (text === 'success') { showSubmitted(); return; }
      if (text === 'null') { showSubmitted('Could not get execution status', 'Make sure "Save successful production executions" is enabled in your workflow settings'); return; }
      if (['canceled', 'crashed', 'error'].indexOf(text) >= 0) { showSubmitted('Problem submitting response', 'Please try again or contact support if the problem persists'); return; }
      interval = Math.round(interval * 1.1);
      timer = setTimeout(pollStatus, interval);
    }).catch(function () { showSubmitted('Problem submitting response', 'Please try again or contact support if the problem persists'); });
  }
  function handle(response) {
    return response.text().then(function (text) {
      var json = null;
      try { json = JSON.parse(text); } catch (e) { json = null; }
      if (config.useResponseData) {
        if (json && json.formWaitingUrl) {
          waitingUrl = json.formWaitingUrl;
          signature = new URL(waitingUrl).searchParams.get('signature');
          timer = setTimeout(pollStatus, interval);
          return;
        }
        if (json && json.redirectURL) { window.location.assign(json.redirectURL); return; }
        if (json && json.formSubmittedText) { showSubmitted(null, json.formSubmittedText); return; }
      }
      if (response.status === 200) {
        var redirect = document.getElementById('redirectUrl');
        if (redirect) { window.location.assign(redirect.href); return; }
        if (config.waitingPage) { timer = setTimeout(pollStatus, interval); return; }
        showSubmitted();
        return;
      }
      showSubmitted('Problem submitting response', response.status === 413
        ? 'The files you are trying to upload are too large. Please reduce the total size and try again.'
        : 'Please try again or contact support if the problem persists');
    });
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var valid = true;
    document.querySelectorAll('#n8n-form .form-input, #n8n-form select').forEach(function (input) { valid = checkInput(input) && valid; });
    document.querySelectorAll('.multiselect').forEach(function (box) { valid = checkMultiselect(box) && valid; });
    if (!valid) return;
    var data = new FormData();
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === 'file') {
        Array.prototype.forEach.call(el.files, function (file) { if (file.size > 0) data.append(el.name, file); });
      } else {
        data.append(el.name, el.value);
      }
    });
    document.querySelectorAll('.multiselect').forEach(function (box) { data.append(box.id, JSON.stringify(selected(box))); });
    var button = document.getElementById('submit-btn');
    button.disabled = true;
    button.classList.add('busy');
    var target = config.waitingPage ? (signature ? '?signature=' + encodeURIComponent(signature) : '') : window.location.search;
    var headers = {};
    if (config.authToken) headers['x-auth-token'] = config.authToken;
    fetch(target || window.location.pathname, { method: 'POST', body: data, headers: headers })
      .then(handle)
      .catch(function () {
        showSubmitted('Problem submitting response', 'The form could not be submitted. Please check your connection and try again, or contact support if the problem persists.');
      });
  });
  if (config.waitingPage && signature) {
    // the signature stays with the page's state, not in the address bar
    pageUrl.searchParams.delete('signature');
    window.history.replaceState(null, '', pageUrl.toString());
  }
})();
