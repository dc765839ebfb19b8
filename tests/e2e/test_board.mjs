// Browser end-to-end test of `tengen serve`: start a renju game from the form,
// click stones onto the board, see black's forbidden point and its
// explanation, play against the engine, undo, download the record.
// Prints TAP lines; SCREENSHOT=path saves a picture of the page.
import { readFileSync } from 'node:fs';
import { failed, launch, ok, startServer, stopServer } from './lib.mjs';

const T = 30000; // per wait; the whole file stays well under a minute

async function stones(page, color) {
  return page.locator(`#board0 circle.stone${color ? '.' + color : ''}`).count();
}

async function newGame(page, cfg) {
  await page.selectOption('#cfg-rule', cfg.rule);
  await page.selectOption('#cfg-opening', cfg.opening);
  await page.fill('#cfg-size', String(cfg.size));
  await page.selectOption('#cfg-black', cfg.black);
  await page.selectOption('#cfg-white', cfg.white);
  await page.fill('#cfg-engine-ms', String(cfg.ms || 300));
  await page.click('#btn-new');
  await page.waitForSelector('#board0', { timeout: T });
}

async function click(page, point) {
  await page.click(`#board0 rect.hit[data-point="${point}"]`);
}

async function main() {
  const { url, proc } = await startServer();
  ok(/^http:\/\/127\.0\.0\.1:\d+$/.test(url), 'serve --port 0 prints the URL', url);
  const { context, close } = await launch();
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  try {
    await page.goto(url + '/');
    await page.waitForSelector('body[data-ready="1"]', { timeout: T });
    ok((await page.locator('#cfg-opening option').count()) === 10, 'the form lists the 10 opening rules from /api/meta');

    // Human against human: a double-three for black at h8.
    await newGame(page, { rule: 'renju', opening: 'free', size: 15, black: 'human', white: 'human' });
    ok((await page.locator('#board0 rect.hit').count()) === 225, 'a 15x15 board is drawn');
    ok((await page.textContent('#board0')).includes('o'), 'the board has coordinate labels');
    await click(page, 'f8');
    await page.waitForSelector('#board0 circle.stone.black[data-point="f8"]', { timeout: T });
    ok(true, 'a click puts a black stone on f8');
    for (const p of ['a1', 'g8', 'a3', 'h6', 'a5', 'h7', 'a7']) {
      const n = await stones(page);
      await click(page, p);
      await page.waitForFunction((k) => document.querySelectorAll('#board0 circle.stone').length === k + 1, n, { timeout: T });
    }
    ok((await stones(page)) === 8, 'eight stones after eight clicks');
    ok((await page.locator('#board0 rect.last[data-point="a7"]').count()) === 1, 'the last move is marked');
    ok(await page.locator('#board0 text.num', { hasText: '8' }).count() >= 1, 'move numbers are drawn');
    const mark = page.locator('#board0 g.forbidden[data-point="h8"]');
    ok((await mark.count()) === 1, 'h8 is marked forbidden for black');
    ok((await mark.getAttribute('data-kind')) === 'double-three', 'the mark says double-three');
    ok((await page.locator('#board0 g.forbidden').count()) === 1, 'no other point is marked');
    await page.hover('#board0 rect.hit[data-point="h8"]');
    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT.replace(/(\.png)?$/, '-forbidden.png') }).catch(() => {});
    await page.waitForFunction(() => document.getElementById('explain').textContent.includes('double-three'), null, { timeout: T });
    const why = await page.textContent('#explain');
    ok(/h8/.test(why) && /three/.test(why), 'hovering h8 shows the explanation', why.slice(0, 80));
    ok((await page.textContent('#moves')).includes('h7'), 'the move list shows the moves');

    // Illegal click: an occupied point gives an error naming it, no crash.
    await click(page, 'f8');
    await page.waitForFunction(() => document.getElementById('error').textContent.length > 0, null, { timeout: T });
    ok((await page.textContent('#error')).includes('f8'), 'an occupied point is refused with a message naming it');

    await page.click('#btn-undo');
    await page.waitForFunction(() => document.querySelectorAll('#board0 circle.stone').length === 7, null, { timeout: T });
    ok((await page.locator('#board0 g.forbidden').count()) === 0, 'undo: seven stones, white to move, no forbidden marks');
    await page.click('#btn-redo');
    await page.waitForFunction(() => document.querySelectorAll('#board0 circle.stone').length === 8, null, { timeout: T });
    ok(true, 'redo brings the stone back');

    // Against the engine.
    await newGame(page, { rule: 'renju', opening: 'free', size: 15, black: 'human', white: 'engine', ms: 300 });
    await click(page, 'h8');
    await page.waitForSelector('#board0 circle.stone.white', { timeout: T });
    ok(true, 'the engine answers with a white stone');
    await page.waitForFunction(() => document.getElementById('engine-info').textContent.includes('depth'), null, { timeout: T });
    ok(/depth \d+/.test(await page.textContent('#engine-info')), 'engine progress shows the depth', await page.textContent('#engine-info'));
    const empty = await page.$$eval('#board0 rect.hit', (rs) => {
      const taken = new Set([...document.querySelectorAll('#board0 circle.stone')].map((c) => c.dataset.point));
      return rs.map((r) => r.dataset.point).filter((p) => !taken.has(p) && /^[f-j]([6-9]|10)$/.test(p));
    });
    await click(page, empty[0]);
    await page.waitForFunction(() => document.querySelectorAll('#board0 circle.stone.white').length === 2, null, { timeout: T });
    ok((await stones(page)) === 4, 'two moves each after the second click');
    await page.click('#btn-undo');
    await page.waitForFunction(() => document.querySelectorAll('#board0 circle.stone').length === 2, null, { timeout: T });
    ok(true, "undo takes back the engine's answer and the human's move");

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: T }), page.click('#dl-tgn')]);
    const text = readFileSync(await download.path(), 'utf8');
    ok(/rule renju/.test(text) && /\bh8\b/.test(text), 'the downloaded record holds the set-up and the moves', text.replace(/\n/g, ' | '));

    // A bad request through the API: JSON error with the field named.
    const bad = await page.evaluate(async () => {
      const r = await fetch('/api/games', { method: 'POST', body: '{"size": 99}' });
      return { status: r.status, body: await r.json() };
    });
    ok(bad.status === 400 && /size/.test(bad.body.error), 'a bad config is a 400 naming the field', JSON.stringify(bad));

    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
    ok(consoleErrors.length === 0, 'no script errors in the page', consoleErrors.join('; '));
  } catch (e) {
    ok(false, 'browser session', e.stack || String(e));
    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true }).catch(() => {});
  } finally {
    await close();
    const code = await stopServer(proc);
    ok(code === 0, 'serve exits cleanly on SIGTERM', `exit ${code}`);
  }
}

main().then(() => process.exit(failed() ? 1 : 0), (e) => {
  ok(false, 'e2e setup', e.stack || String(e));
  process.exit(1);
});
