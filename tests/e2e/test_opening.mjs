// Browser test of the opening steps: a RIF opening between two humans through
// the page (restricted placement marks, keep-colour buttons, marking and
// proposing two 5th moves, choosing one), then the dual-board variant's two
// boards. Prints TAP lines.
import { failed, launch, ok, startServer, stopServer } from './lib.mjs';

const T = 30000;

async function click(page, point, board = 0) {
  await page.click(`#board${board} rect.hit[data-point="${point}"]`);
}

async function waitStones(page, n, board = 0) {
  await page.waitForFunction(([k, b]) => document.querySelectorAll(`#board${b} circle.stone`).length === k,
                             [n, board], { timeout: T });
}

async function main() {
  const { url, proc } = await startServer();
  const { context, close } = await launch();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(url + '/');
    await page.waitForSelector('body[data-ready="1"]', { timeout: T });
    await page.selectOption('#cfg-rule', 'renju');
    await page.selectOption('#cfg-opening', 'rif');
    await page.fill('#cfg-size', '15');
    await page.selectOption('#cfg-black', 'human');
    await page.selectOption('#cfg-white', 'human');
    await page.click('#btn-new');
    await page.waitForSelector('#board0', { timeout: T });

    ok((await page.locator('#board0 circle.legal').count()) === 1 &&
       (await page.locator('#board0 circle.legal[data-point="h8"]').count()) === 1,
       'RIF: only the centre is marked for the first stone');
    await click(page, 'a1');
    await page.waitForFunction(() => document.getElementById('error').textContent.length > 0, null, { timeout: T });
    ok((await page.textContent('#error')).includes('a1'), 'a stone outside the area is refused, naming the point');
    await click(page, 'h8'); await waitStones(page, 1);
    await click(page, 'h9'); await waitStones(page, 2);
    await click(page, 'h10'); await waitStones(page, 3);
    await page.waitForSelector('#btn-noswap:not([hidden])', { timeout: T });
    ok(await page.isVisible('#btn-swap'), 'after three stones the swap choice is offered');
    await page.click('#btn-noswap');
    await page.waitForFunction(() => document.getElementById('turn-text').textContent.includes('white 4'), null, { timeout: T });
    ok(true, 'keeping colours: white places stone 4');
    await click(page, 'j8'); await waitStones(page, 4);
    await page.waitForSelector('#propose-box:not([hidden])', { timeout: T });
    ok((await page.textContent('#propose-text')).includes('mark 2 points'), 'black is asked to mark two 5th moves');
    await click(page, 'i11');
    await click(page, 'f5');
    await page.waitForFunction(() => document.getElementById('propose-text').textContent.includes('2 marked'), null, { timeout: T });
    ok((await page.locator('#board0 circle.mark').count()) === 2, 'the two marked points are drawn');
    await page.click('#btn-propose');
    await page.waitForSelector('#board0 circle.proposal[data-point="f5"]', { timeout: T });
    ok((await page.locator('#board0 circle.proposal').count()) === 2, 'the proposals are shown to white');
    await click(page, 'f5');
    await page.waitForSelector('#board0 circle.stone.black[data-point="f5"][data-move="5"]', { timeout: T });
    ok(true, "white's choice becomes black stone 5");
    ok((await page.textContent('#moves')).includes('propose'), 'the move list shows the proposal');
    ok(/white .* to play move 6/.test(await page.textContent('#status')), 'the status line says white plays move 6', await page.textContent('#status'));

    // Dual-board: two boards, each clickable.
    await page.selectOption('#cfg-rule', 'dualboard');
    await page.selectOption('#cfg-white', 'human');
    await page.click('#btn-new');
    await page.waitForSelector('#board1', { timeout: T });
    ok((await page.locator('svg.board').count()) === 2, 'dual-board: two boards are drawn');
    await click(page, 'h8', 0);
    await waitStones(page, 1, 0);
    await click(page, 'h8', 1);
    await waitStones(page, 1, 1);
    ok(true, 'dual-board: a stone on each board');
    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT.replace(/(\.png)?$/, '-dual.png') });
    ok(errors.length === 0, 'no script errors in the page', errors.join('; '));
  } catch (e) {
    ok(false, 'browser session', e.stack || String(e));
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
