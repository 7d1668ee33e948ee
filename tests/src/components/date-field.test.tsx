// @vitest-environment jsdom
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DateField } from '../../../src/components/date-field/DateField.tsx';
import { formatDateInput, parseDateInput } from '../../../src/components/date-field/date-format.ts';
import { WithIntl } from './intl.tsx';

afterEach(() => {
  cleanup();
});

function Controlled({ initial = '', onValue }: { initial?: string; onValue: (iso: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="d">Delivery</label>
      <DateField
        id="d"
        label="Delivery"
        value={value}
        onChange={(iso) => {
          setValue(iso);
          onValue(iso);
        }}
      />
      <button type="button" onClick={() => setValue('2026-01-09')}>
        set
      </button>
      <output data-testid="value">{value}</output>
    </>
  );
}

function renderField(locale: 'ro' | 'en', initial = '') {
  const onValue = vi.fn();
  render(
    <WithIntl locale={locale}>
      <Controlled initial={initial} onValue={onValue} />
    </WithIntl>,
  );
  return { input: screen.getByLabelText('Delivery') as HTMLInputElement, onValue, value: () => screen.getByTestId('value').textContent };
}

describe('date format', () => {
  it('reads both languages, digits only and ISO; tells an impossible date from an unfinished one', () => {
    expect(parseDateInput('06.03.2027')).toEqual({ kind: 'date', iso: '2027-03-06' });
    expect(parseDateInput('6.3.2027')).toEqual({ kind: 'date', iso: '2027-03-06' });
    expect(parseDateInput('06/03/2027')).toEqual({ kind: 'date', iso: '2027-03-06' });
    expect(parseDateInput('06032027')).toEqual({ kind: 'date', iso: '2027-03-06' });
    expect(parseDateInput('2027-03-06')).toEqual({ kind: 'date', iso: '2027-03-06' });
    expect(parseDateInput('29.02.2028')).toEqual({ kind: 'date', iso: '2028-02-29' });
    expect(parseDateInput('29.02.2027')).toEqual({ kind: 'impossible' });
    expect(parseDateInput('31.04.2027')).toEqual({ kind: 'impossible' });
    expect(parseDateInput('12.13.2027')).toEqual({ kind: 'impossible' });
    expect(parseDateInput('06.03.20')).toEqual({ kind: 'incomplete' });
    expect(parseDateInput('')).toEqual({ kind: 'empty' });
    expect(formatDateInput('2027-03-06', 'ro')).toBe('06.03.2027');
    expect(formatDateInput('2027-03-06', 'en')).toBe('06/03/2027');
    expect(formatDateInput('', 'en')).toBe('');
  });
});

describe('DateField', () => {
  it('shows a date as zz.ll.aaaa in Romanian and gives the code ISO for what is typed', () => {
    const { input, onValue, value } = renderField('ro', '2026-12-06');
    expect(input.type).toBe('text');
    expect(input.value).toBe('06.12.2026');
    expect(input.placeholder).toBe('zz.ll.aaaa');
    fireEvent.change(input, { target: { value: '15.03.2027' } });
    expect(onValue).toHaveBeenLastCalledWith('2027-03-15');
    expect(value()).toBe('2027-03-15');
    expect(input.value).toBe('15.03.2027');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows dd/mm/yyyy in English, never the month first', () => {
    const { input, onValue } = renderField('en', '2026-12-06');
    expect(input.value).toBe('06/12/2026');
    expect(input.placeholder).toBe('dd/mm/yyyy');
    fireEvent.change(input, { target: { value: '01/02/2027' } });
    expect(onValue).toHaveBeenLastCalledWith('2027-02-01');
  });

  it('says an impossible date is impossible, in both languages, and gives the code no date', () => {
    const ro = renderField('ro', '2027-02-01');
    fireEvent.change(ro.input, { target: { value: '31.02.2027' } });
    expect(screen.getByRole('alert').textContent).toBe('Această dată nu există. Scrieți-o ca zz.ll.aaaa.');
    expect(ro.input.getAttribute('aria-invalid')).toBe('true');
    expect(ro.input.getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id);
    expect(ro.onValue).toHaveBeenLastCalledWith('');
    cleanup();
    const en = renderField('en');
    fireEvent.change(en.input, { target: { value: '30/02/2027' } });
    expect(screen.getByRole('alert').textContent).toBe('There is no such date. Write it as dd/mm/yyyy.');
  });

  it('asks for the format when the user leaves an unfinished date; tidies a short one', () => {
    const { input } = renderField('ro');
    fireEvent.change(input, { target: { value: '12.3' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.blur(input);
    expect(screen.getByRole('alert').textContent).toBe('Scrieți data ca zz.ll.aaaa.');
    fireEvent.change(input, { target: { value: '1.3.2027' } });
    fireEvent.blur(input);
    expect(input.value).toBe('01.03.2027');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps letters out, follows a value set from outside, and takes a date from the calendar', () => {
    const { input, onValue, value } = renderField('en');
    fireEvent.change(input, { target: { value: 'ab12/0x3/2027' } });
    expect(input.value).toBe('12/03/2027');
    fireEvent.click(screen.getByRole('button', { name: 'set' }));
    expect(input.value).toBe('09/01/2026');
    const native = document.querySelector('input[type="date"]') as HTMLInputElement;
    expect(native.tabIndex).toBe(-1);
    expect(native.getAttribute('aria-hidden')).toBe('true');
    fireEvent.change(native, { target: { value: '2027-07-04' } });
    expect(input.value).toBe('04/07/2027');
    expect(onValue).toHaveBeenLastCalledWith('2027-07-04');
    expect(value()).toBe('2027-07-04');
  });

  it('opens the browser calendar from its named button and from Alt+Down', () => {
    renderField('ro');
    const native = document.querySelector('input[type="date"]') as HTMLInputElement;
    const showPicker = vi.fn();
    native.showPicker = showPicker;
    fireEvent.click(screen.getByRole('button', { name: 'Calendar: Delivery' }));
    expect(showPicker).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByLabelText('Delivery'), { key: 'ArrowDown', altKey: true });
    expect(showPicker).toHaveBeenCalledTimes(2);
  });
});

describe('no native date input is left in the screens', () => {
  it('uses DateField wherever src/ asks for a date', () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !path.includes('date-field') && /type=["']date["']/.test(readFileSync(path, 'utf8'))) found.push(path);
      }
    };
    walk('src');
    expect(found).toEqual([]);
  });
});
