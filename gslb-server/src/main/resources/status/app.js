// The status page: polls /status/api/* and draws with the DOM and SVG. Read-only: no action is sent.
// Every text from the server goes in with textContent (names come from configs and peers).
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const COLOURS = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7ea4', '#57606a'];
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem('gslb-token');
let overview = null;
let ldnsQuery = '';
let ldnsOffset = 0;
const PAGE = 25;

function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(k === null || k === undefined ? '' : String(k)));
  return e;
}

function s(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function get(path) {
  const r = await fetch(path, { headers: token ? { Authorization: 'Bearer ' + token } : {} });
  if (r.status === 401) {
    $('token-box').hidden = false;
    throw new Error('the admin token is needed');
  }
  if (!r.ok) throw new Error(((await r.json().catch(() => null)) || {}).error || path + ': HTTP ' + r.status);
  return r.json();
}

function showError(e) {
  $('error').hidden = !e;
  $('error').textContent = e ? String(e.message || e) : '';
}

function rate(bps) {
  if (bps === null || bps === undefined) return '-';
  if (bps >= 1e9) return (bps / 1e9).toFixed(2) + ' Gbit/s';
  if (bps >= 1e6) return (bps / 1e6).toFixed(1) + ' Mbit/s';
  if (bps >= 1e3) return (bps / 1e3).toFixed(1) + ' kbit/s';
  return bps + ' bit/s';
}

function ago(iso) {
  if (!iso) return '-';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 120 ? s + ' s ago' : s < 7200 ? Math.round(s / 60) + ' min ago' : Math.round(s / 3600) + ' h ago';
}

function table(el, head, rows) {
  el.replaceChildren(h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t)))), h('tbody', {}, ...rows));
}

function state(text) {
  const t = String(text || 'unknown').toLowerCase();
  return h('span', { class: 'state state-' + t }, t.toUpperCase());
}

// ---- overview: identity, data centers with links and servers, peers, LDNS counts ----

function renderOverview(o) {
  overview = o;
  $('who').textContent = o.instance + ' in ' + o.dataCenter;
  const c = o.config;
  $('config').textContent = 'configuration generation ' + c.generation + ' from ' + c.origin
    + (c.peers.length ? (c.inSync ? ' · in sync' : ' · NOT in sync') : '');
  $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
  $('dcs').replaceChildren(...o.dataCenters.map((dc) => {
    const links = o.links.filter((l) => l.dataCenter === dc);
    const servers = o.servers.filter((v) => v.dataCenter === dc);
    const card = h('div', { class: 'card', 'data-dc': dc }, h('h3', {}, dc + (dc === o.dataCenter ? ' (this instance)' : '')));
    if (links.length) {
      const t = h('table', { class: 'links' });
      table(t, ['link', 'state', 'in / limit', 'out / limit', 'measured by'], links.map((l) => h('tr', { 'data-link': l.name },
        h('td', {}, l.name), h('td', {}, state(l.state), l.overLimit ? h('span', { class: 'over' }, ' over limit') : ''),
        h('td', {}, rate(l.inBps) + ' / ' + rate(l.limitInBps)), h('td', {}, rate(l.outBps) + ' / ' + rate(l.limitOutBps)),
        h('td', {}, l.measuredBy || '-'))));
      card.append(h('div', { class: 'scroll' }, t));
    }
    const t = h('table', { class: 'servers' });
    table(t, ['virtual server', 'address', 'state', 'last check', 'reason', 'switch-over'], servers.map((v) => h('tr', { 'data-server': v.name },
      h('td', {}, v.name), h('td', {}, v.address), h('td', { class: 'server-state' }, state(v.state), v.waitingForResume ? h('span', { class: 'over' }, ' waiting for resume') : '', v.runtime ? h('span', { class: 'runtime' }, ' ' + v.runtime) : ''),
      h('td', {}, ago(v.lastCheck)), h('td', {}, v.reason || ''), h('td', {}, v.switchOverSeconds === null ? '-' : '≤ ' + v.switchOverSeconds + ' s'))));
    card.append(h('div', { class: 'scroll' }, t));
    return card;
  }));
  table($('peers'), ['peer', 'data center', 'state', 'via', 'last heartbeat', 'lag', 'configuration'], o.peers.map((p) => {
    const pc = c.peers.find((x) => x.name === p.name) || {};
    return h('tr', { 'data-peer': p.name }, h('td', {}, p.name), h('td', {}, p.dataCenter), h('td', {}, state(p.state)),
      h('td', {}, p.inUse || '-'), h('td', {}, ago(p.lastHeartbeat)), h('td', {}, p.lagMillis === null ? '-' : p.lagMillis + ' ms'),
      h('td', {}, pc.generation === undefined || pc.generation === null ? '-' : 'generation ' + pc.generation + ' (' + pc.state + ')'));
  }));
  if (!o.peers.length) table($('peers'), ['no peers: gslb peer pair / gslb peer join'], []);
  $('ldns-counts').textContent = o.ldns.toLocaleString('en') + ' LDNS'
    + (Object.keys(o.ldnsByState).length ? ': ' + Object.entries(o.ldnsByState).map(([k, v]) => k + ' ' + v.toLocaleString('en')).join(', ') : '');
  const names = o.wideIps;
  const sel = $('why-name');
  if (sel.options.length !== names.length) sel.replaceChildren(...names.map((n) => h('option', { value: n }, n)));
}

async function refreshOverview() {
  try {
    renderOverview(await get('/status/api/overview'));
    showError(null);
    if (window.firstViewMs === undefined) window.firstViewMs = performance.now();
  } catch (e) {
    showError(e);
  }
}

// ---- the proximity table: server-side search and paging ----

async function refreshLdns() {
  try {
    const p = await get('/status/api/ldns?q=' + encodeURIComponent(ldnsQuery) + '&offset=' + ldnsOffset + '&limit=' + PAGE);
    const dcs = overview ? overview.dataCenters : [];
    $('ldns-matched').textContent = p.matched.toLocaleString('en') + ' match' + (p.matched === 1 ? '' : 'es')
      + (p.query ? ' "' + p.query + '"' : '') + (p.rows.length ? '; ' + (p.offset + 1) + '–' + (p.offset + p.rows.length) + ' shown' : '')
      + (p.wideIp ? '; "sent to" is for ' + p.wideIp : '');
    table($('ldns-table'), ['LDNS', 'state', 'sent to', ...dcs.map((d) => d + ' RTT / completion / hops / age')], p.rows.map((r) => {
      const byDc = Object.fromEntries(r.ldns.paths.map((x) => [x.dataCenter, x]));
      return h('tr', { 'data-ldns': r.ldns.address }, h('td', {}, r.ldns.address),
        h('td', {}, r.ldns.state + (r.ldns.keptDataCenter ? ', kept ' + r.ldns.keptDataCenter : '')),
        h('td', {}, (r.sentTo || '-') + (r.decidedBy ? ' (' + r.decidedBy + ')' : '')),
        ...dcs.map((d) => {
          const x = byDc[d];
          return h('td', { class: x && !x.fresh ? 'muted' : '' }, x ? (x.rttMicros / 1000).toFixed(1) + ' ms / ' + (x.completion / 100).toFixed(0)
            + ' % / ' + (x.hops || '-') + ' / ' + ago(x.measuredAt) : '-');
        }));
    }));
    $('prev').disabled = ldnsOffset === 0;
    $('next').disabled = ldnsOffset + p.rows.length >= p.matched;
  } catch (e) {
    showError(e);
  }
}

// ---- pictures: RTT histogram, answers over the last hour, the topology grid ----

function legend(svg, keys) {
  const div = h('div', { class: 'legend' }, ...keys.map((k, i) => {
    const sw = h('span', { class: 'swatch' });
    sw.style.background = COLOURS[i % COLOURS.length];
    return h('span', {}, sw, k);
  }));
  const old = svg.nextElementSibling;
  if (old && old.classList.contains('legend')) old.remove();
  svg.after(div);
}

function histogram(svg, edges, data) {
  svg.replaceChildren();
  const keys = Object.keys(data);
  const labels = edges.map((e, i) => (i === 0 ? '<' + e : edges[i - 1] + '–' + e)).concat(['≥' + edges[edges.length - 1]]);
  const max = Math.max(1, ...keys.flatMap((k) => data[k]));
  const W = 480, H = 220, L = 36, B = 30, groupW = (W - L - 8) / labels.length, barW = Math.max(2, (groupW - 6) / Math.max(1, keys.length));
  svg.append(s('text', { x: 2, y: 12 }, max.toLocaleString('en')), s('line', { x1: L, y1: H - B, x2: W - 4, y2: H - B, stroke: '#dde1e7' }));
  labels.forEach((lab, b) => {
    svg.append(s('text', { x: L + b * groupW + 2, y: H - B + 14 }, lab));
    keys.forEach((k, i) => {
      const v = data[k][b];
      const hgt = (H - B - 16) * v / max;
      const bar = s('rect', { x: L + b * groupW + 3 + i * barW, y: H - B - hgt, width: barW - 1, height: hgt, fill: COLOURS[i % COLOURS.length] });
      bar.append(s('title', {}, k + ' ' + lab + ' ms: ' + v));
      svg.append(bar);
    });
  });
  svg.append(s('text', { x: W - 30, y: H - 4 }, 'ms'));
  legend(svg, keys);
}

function series(svg, data) {
  svg.replaceChildren();
  const keys = Object.keys(data);
  const max = Math.max(1, ...keys.flatMap((k) => data[k]));
  const W = 480, H = 220, L = 36, B = 24;
  svg.append(s('text', { x: 2, y: 12 }, max.toLocaleString('en')), s('text', { x: L, y: H - 6 }, '-60 min'),
    s('text', { x: W - 30, y: H - 6 }, 'now'), s('line', { x1: L, y1: H - B, x2: W - 4, y2: H - B, stroke: '#dde1e7' }));
  keys.forEach((k, i) => {
    const pts = data[k].map((v, m) => (L + m * (W - L - 8) / 59).toFixed(1) + ',' + (H - B - (H - B - 16) * v / max).toFixed(1)).join(' ');
    svg.append(s('polyline', { points: pts, fill: 'none', stroke: COLOURS[i % COLOURS.length], 'stroke-width': 2 }));
  });
  if (!keys.length) svg.append(s('text', { x: L + 10, y: 100 }, 'no answers yet'));
  legend(svg, keys);
}

function regions(el, dcs, rows) {
  const max = Math.max(1, ...rows.flatMap((r) => Object.values(r.scores)));
  table(el, ['region', 'prefixes', ...dcs], rows.map((r) => h('tr', { 'data-region': r.region }, h('td', {}, r.region),
    h('td', {}, r.prefixes.toLocaleString('en')), ...dcs.map((d) => {
      const v = r.scores[d];
      const td = h('td', {}, v === undefined ? '' : v);
      if (v !== undefined) td.style.background = 'rgba(9, 105, 218, ' + (0.12 + 0.6 * v / max).toFixed(2) + ')';
      return td;
    }))));
}

async function refreshCharts() {
  try {
    const c = await get('/status/api/charts');
    histogram($('rtt-chart'), c.rttEdgesMs, c.rttHistogram);
    series($('answers-dc'), c.answers.dataCenters);
    series($('answers-method'), c.answers.methods);
    regions($('regions'), c.dataCenters, c.regions);
  } catch (e) {
    showError(e);
  }
}

// ---- why: the decision trace of `gslb resolve --explain` ----

async function why(ev) {
  ev.preventDefault();
  const out = $('why-result');
  const q = '?name=' + encodeURIComponent($('why-name').value) + '&ldns=' + encodeURIComponent($('why-ldns').value.trim())
    + ($('why-ecs').value.trim() ? '&ecs=' + encodeURIComponent($('why-ecs').value.trim()) : '');
  try {
    const x = await get('/status/api/why' + q);
    const d = x.decidedBy;
    out.replaceChildren(
      h('p', { class: 'decided' }, d ? 'decided by ' + d.method + ' (' + d.tier + ' tier of pool ' + d.pool + '): ' + d.outcome.toLowerCase()
        : 'no pool decided: ' + x.failure),
      h('p', {}, 'answer: ' + (x.answers.map((a) => a.address + (a.dataCenter ? ' (' + a.server + ' in ' + a.dataCenter + ')' : '')).join(', ') || 'none')
        + ', TTL ' + x.ttl + (x.ecs ? ', ECS scope /' + x.ecsScope : '')),
      h('ol', {}, ...x.steps.map((st) => h('li', {}, h('b', {}, st.topic + ': '), st.detail))));
  } catch (e) {
    out.replaceChildren(h('p', { class: 'error' }, e.message));
  }
}

$('why-form').addEventListener('submit', why);
$('ldns-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  ldnsQuery = $('ldns-search').value.trim();
  ldnsOffset = 0;
  refreshLdns();
});
$('prev').addEventListener('click', () => { ldnsOffset = Math.max(0, ldnsOffset - PAGE); refreshLdns(); });
$('next').addEventListener('click', () => { ldnsOffset += PAGE; refreshLdns(); });
$('token-box').addEventListener('submit', (ev) => {
  ev.preventDefault();
  token = $('token').value.trim();
  sessionStorage.setItem('gslb-token', token);
  $('token-box').hidden = true;
  start();
});

async function start() {
  await refreshOverview();
  refreshLdns();
  refreshCharts();
}

start();
setInterval(refreshOverview, 2000);
setInterval(refreshLdns, 10000);
setInterval(refreshCharts, 10000);
