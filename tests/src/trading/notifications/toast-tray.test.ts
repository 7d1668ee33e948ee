import { describe, expect, it } from 'vitest';
import { emptyTray, expireToasts, FILL_MIN_MS, MAX_TOASTS, nextDeadline, NOTICE_MS, removeToasts, showToast, type TrayState } from '../../../../src/trading/notifications/toast-tray.ts';

const keys = (state: TrayState) => ({ visible: state.visible.map((slot) => slot.key), waiting: state.waiting.map((slot) => slot.key) });

describe('the toast tray', () => {
  it('shows at most three, newest first; a notice gives way to a newer toast before any fill', () => {
    let tray = emptyTray;
    tray = showToast(tray, 'fill-1', 'fill', 0);
    tray = showToast(tray, 'notice-1', 'notice', 10);
    tray = showToast(tray, 'fill-2', 'fill', 20);
    expect(MAX_TOASTS).toBe(3);
    tray = showToast(tray, 'notice-2', 'notice', 30);
    expect(keys(tray)).toEqual({ visible: ['notice-2', 'fill-2', 'fill-1'], waiting: [] });
  });

  it("keeps one's own fill at least FILL_MIN_MS: a newer toast waits for its place, then takes the oldest fill's", () => {
    let tray = emptyTray;
    for (const [index, key] of ['f1', 'f2', 'f3'].entries()) tray = showToast(tray, key, 'fill', index * 1000);
    tray = showToast(tray, 'n1', 'notice', 3000);
    expect(keys(tray)).toEqual({ visible: ['f3', 'f2', 'f1'], waiting: ['n1'] });
    expect(nextDeadline(tray)).toBe(FILL_MIN_MS); // f1 may give way then
    expect(keys(expireToasts(tray, FILL_MIN_MS - 1))).toEqual({ visible: ['f3', 'f2', 'f1'], waiting: ['n1'] });
    tray = expireToasts(tray, FILL_MIN_MS);
    expect(keys(tray)).toEqual({ visible: ['n1', 'f3', 'f2'], waiting: [] });
    expect(tray.visible[0]).toMatchObject({ shownAt: FILL_MIN_MS });
  });

  it('a fill alone stays until read; a notice leaves NOTICE_MS after it was shown or last grew', () => {
    let tray = showToast(emptyTray, 'fill', 'fill', 0);
    tray = showToast(tray, 'notice', 'notice', 0);
    expect(nextDeadline(tray)).toBe(NOTICE_MS);
    tray = showToast(tray, 'notice', 'notice', 4000); // grown: its time starts again
    expect(nextDeadline(tray)).toBe(4000 + NOTICE_MS);
    tray = expireToasts(tray, 4000 + NOTICE_MS);
    expect(keys(tray)).toEqual({ visible: ['fill'], waiting: [] });
    expect(nextDeadline(tray)).toBeNull();
    expect(keys(expireToasts(tray, 10 * 60_000))).toEqual({ visible: ['fill'], waiting: [] });
    tray = removeToasts(tray, (key) => key === 'fill', 10 * 60_000);
    expect(keys(tray)).toEqual({ visible: [], waiting: [] });
  });

  it('an entry already shown is refreshed in place, and a fill grouped into a notice makes it a fill', () => {
    let tray = showToast(emptyTray, 'a', 'notice', 0);
    tray = showToast(tray, 'a', 'fill', 100);
    expect(tray.visible).toEqual([{ key: 'a', kind: 'fill', shownAt: 0, touchedAt: 100 }]);
  });

  it('a toast read or dismissed leaves, and a waiting one takes its place', () => {
    let tray = emptyTray;
    for (const key of ['f1', 'f2', 'f3', 'f4']) tray = showToast(tray, key, 'fill', 0);
    expect(keys(tray)).toEqual({ visible: ['f3', 'f2', 'f1'], waiting: ['f4'] });
    tray = removeToasts(tray, (key) => key === 'f2', 500);
    expect(keys(tray)).toEqual({ visible: ['f4', 'f3', 'f1'], waiting: [] });
    expect(removeToasts(tray, () => false, 600)).toBe(tray);
  });
});
