// Makes the coastlines the Tycoon and Tyros boards draw, once, as committed SVG path data:
// `npm run maps` (in web/), after `npm ci`. The page never needs npm; it imports the output.
//
// Source: Natural Earth land polygons (public domain, naturalearthdata.com), as TopoJSON from
// the npm package world-atlas (ISC), read with topojson-client (ISC). Each map is clipped to
// the frame its board's layout file gives (engine/rules/{game}-layout.json, "map"), with a
// small margin, rounded to a grid of 1/scale degree and written as one path: x = lon × scale,
// y = −lat × scale (north up), so that the board maps the frame onto its drawing with one
// transform and places cities and cells with the same numbers.

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

const MAPS = [
  // The world band above Tycoon's cities: 1:110m is plenty at about 3.6 px per degree.
  { layout: 'tycoon-layout.json', atlas: 'land-110m.json', scale: 10, margin: 1, out: 'world.js', what: 'the world map of Tycoon' },
  // The Mediterranean under Tyros's grid: about 20 px per degree, so 1:50m and 0.05 degree.
  { layout: 'tyros-layout.json', atlas: 'land-50m.json', scale: 20, margin: 0.5, out: 'mediterranean.js', what: 'the Mediterranean of Tyros' },
];

/**
 * Sutherland–Hodgman: a ring clipped to one side of the frame.
 * @param {number[][]} ring
 * @param {(p: number[]) => boolean} inside
 * @param {(a: number[], b: number[]) => number[]} cross
 */
function clipSide(ring, inside, cross) {
  const out = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[(i + ring.length - 1) % ring.length];
    const b = ring[i];
    if (inside(b)) {
      if (!inside(a)) out.push(cross(a, b));
      out.push(b);
    } else if (inside(a)) {
      out.push(cross(a, b));
    }
  }
  return out;
}

/**
 * A ring clipped to the box [w, e] × [s, n] (degrees).
 * @param {number[][]} ring
 * @param {{w: number, e: number, s: number, n: number}} box
 */
function clip(ring, box) {
  const atX = (x) => (a, b) => [x, a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0])];
  const atY = (y) => (a, b) => [a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]), y];
  let r = ring;
  r = clipSide(r, (p) => p[0] >= box.w, atX(box.w));
  r = clipSide(r, (p) => p[0] <= box.e, atX(box.e));
  r = clipSide(r, (p) => p[1] >= box.s, atY(box.s));
  r = clipSide(r, (p) => p[1] <= box.n, atY(box.n));
  return r;
}

/**
 * A ring that crosses the antimeridian (Fiji, Chukotka) jumps by 360 degrees there; it is
 * made continuous instead, so that clipping cuts it at the frame rather than drawing a sliver
 * around the world.
 * @param {number[][]} ring
 */
function unwrap(ring) {
  let shift = 0;
  const out = ring.map(([lon, lat], i) => {
    if (i > 0) {
      const before = ring[i - 1][0];
      if (lon - before > 180) shift -= 360;
      else if (before - lon > 180) shift += 360;
    }
    return [lon + shift, lat];
  });
  // Most of the ring belongs between -180 and 180, wherever it started.
  const mean = out.reduce((sum, p) => sum + p[0], 0) / out.length;
  const back = mean > 180 ? -360 : mean < -180 ? 360 : 0;
  return out.map(([lon, lat]) => [lon + back, lat]);
}

/**
 * One ring as path data, rounded to the grid, repeated points dropped, relative moves after
 * the first point.
 * @param {number[][]} ring
 * @param {number} scale
 */
function ringPath(ring, scale) {
  const pts = [];
  for (const [lon, lat] of ring) {
    const p = [Math.round(lon * scale), Math.round(-lat * scale)];
    const last = pts.at(-1);
    if (!last || last[0] !== p[0] || last[1] !== p[1]) pts.push(p);
  }
  if (pts.length > 1 && pts[0][0] === pts.at(-1)[0] && pts[0][1] === pts.at(-1)[1]) pts.pop();
  // Drop points on a straight line between their neighbours (long clipped edges, rounding).
  const kept = pts.filter((p, i) => {
    const a = pts[(i + pts.length - 1) % pts.length];
    const b = pts[(i + 1) % pts.length];
    return (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0]) !== 0;
  });
  if (kept.length < 3) return '';
  const num = (n) => String(n);
  let d = `M${kept[0][0]} ${kept[0][1]}l`;
  let prev = kept[0];
  const steps = [];
  for (const p of kept.slice(1)) {
    steps.push(`${num(p[0] - prev[0])} ${num(p[1] - prev[1])}`);
    prev = p;
  }
  // A minus sign separates numbers by itself.
  d += steps.join(' ').replace(/ -/g, '-');
  return `${d}z`;
}

for (const map of MAPS) {
  const layout = JSON.parse(readFileSync(join(root, 'engine', 'rules', map.layout), 'utf8'));
  const { west, east, north, south } = layout.map;
  const box = { w: west - map.margin, e: east + map.margin, s: south - map.margin, n: north + map.margin };
  const topology = require(`world-atlas/${map.atlas}`);
  const land = feature(topology, topology.objects.land);
  const polygons = land.type === 'FeatureCollection' ? land.features.flatMap((f) => f.geometry.coordinates) : land.geometry.coordinates;
  const paths = [];
  for (const polygon of polygons) {
    for (const ring of polygon) {
      const clipped = clip(unwrap(ring), box);
      if (clipped.length >= 3) paths.push(ringPath(clipped, map.scale));
    }
  }
  const d = paths.filter(Boolean).join('');
  const version = require('world-atlas/package.json').version;
  const text = `// Generated by web/tools/make-maps.mjs (npm run maps); do not edit. ${map.what[0].toUpperCase()}${map.what.slice(1)}:
// Natural Earth land, ${map.atlas} (public domain, naturalearthdata.com), from the npm package
// world-atlas ${version}, clipped to the frame of engine/rules/${map.layout} with a margin of
// ${map.margin} degree. Coordinates: x = longitude × ${map.scale}, y = −latitude × ${map.scale}.

/** @type {{scale: number, land: string}} */
export default {
  scale: ${map.scale},
  land: '${d}',
};
`;
  writeFileSync(join(root, 'web', 'static', 'src', 'boards', 'maps', map.out), text);
  console.log(`${map.out}: ${paths.length} rings, ${text.length} bytes`);
}
