import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';
import { CalendarIcon } from '../icons.tsx';
import { datePattern, formatDateInput, parseDateInput } from './date-format.ts';
import './DateField.css';

export interface DateFieldProps {
  /** The text input's id: the page's `<label htmlFor>` names it. */
  id: string;
  /** ISO yyyy-mm-dd, or '' for no date. */
  value: string;
  /** Called with ISO yyyy-mm-dd when the typed text is a real date, '' when it is empty or not (yet) a date. */
  onChange: (iso: string) => void;
  /** The field's label as text, for the calendar button's name ('Calendar: From'). */
  label?: string;
  min?: string;
  max?: string;
  disabled?: boolean;
  required?: boolean;
  compact?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/**
 * A date typed in the app's language (ro dd.mm.yyyy, en dd/mm/yyyy; docs/web-shell.md, "Date field"),
 * with the browser's own calendar behind a button, and the ISO value (yyyy-mm-dd) to the code, as a
 * native `<input type="date">` gives it. A native date input shows the browser's locale (mm/dd/yyyy in
 * an American browser), whatever the app's language: this one does not.
 */
export function DateField({ id, value, onChange, label, min, max, disabled, required, compact, ...aria }: DateFieldProps) {
  const intl = useIntl();
  const { placeholder } = datePattern(intl.locale);
  const key = `${intl.locale}|${value}`;
  const [shown, setShown] = useState(key);
  const [text, setText] = useState(() => formatDateInput(value, intl.locale));
  const [touched, setTouched] = useState(false);
  const native = useRef<HTMLInputElement>(null);
  const ownId = useId();
  const hintId = `${ownId}-hint`;
  const errorId = `${ownId}-error`;

  // A value set from outside (a reset, the calendar, another language) is shown in this language.
  if (shown !== key) {
    setShown(key);
    setText(formatDateInput(value, intl.locale));
    setTouched(false);
  }

  const emit = (iso: string) => {
    setShown(`${intl.locale}|${iso}`);
    if (iso !== value) onChange(iso);
  };

  const type = (typed: string) => {
    const cleaned = typed.replace(/[^\d./\-\s]/g, '').slice(0, 10);
    setText(cleaned);
    const parsed = parseDateInput(cleaned);
    emit(parsed.kind === 'date' ? parsed.iso : '');
  };

  const openCalendar = () => {
    const input = native.current;
    if (!input || disabled) return;
    try {
      input.showPicker();
    } catch {
      // No picker (an old browser, or no user gesture): the typed field still works.
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.altKey && event.key === 'ArrowDown') {
      event.preventDefault();
      openCalendar();
    }
  };

  const parsed = parseDateInput(text);
  const problem = parsed.kind === 'impossible' ? 'dateField.impossible' : parsed.kind === 'incomplete' && touched ? 'dateField.incomplete' : null;
  const describedBy = [aria['aria-describedby'], hintId, problem ? errorId : undefined].filter(Boolean).join(' ');

  return (
    <span className={compact ? 'date-field date-field-compact' : 'date-field'}>
      <span className="date-field-row">
        <input
          id={id}
          className="date-field-input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={10}
          placeholder={placeholder}
          value={text}
          disabled={disabled}
          required={required}
          aria-invalid={aria['aria-invalid'] || problem !== null ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => type(event.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (parsed.kind === 'date') setText(formatDateInput(parsed.iso, intl.locale));
            setTouched(true);
          }}
        />
        <button
          type="button"
          className="icon-button date-field-button"
          aria-label={intl.formatMessage({ id: 'dateField.calendar' }, { label: label ?? '' }).replace(/:\s*$/, '')}
          title={intl.formatMessage({ id: 'dateField.calendar' }, { label: label ?? '' }).replace(/:\s*$/, '')}
          disabled={disabled}
          onClick={openCalendar}
        >
          <CalendarIcon />
        </button>
        <input
          ref={native}
          className="date-field-native"
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          value={value}
          min={min}
          max={max}
          disabled={disabled}
          onChange={(event) => {
            const iso = event.target.value;
            setText(formatDateInput(iso, intl.locale));
            setTouched(false);
            emit(iso);
          }}
        />
      </span>
      <span id={hintId} className="visually-hidden">
        {intl.formatMessage({ id: 'dateField.format' }, { format: placeholder })}
      </span>
      {problem && (
        <span id={errorId} className="field-error date-field-error" role="alert">
          {intl.formatMessage({ id: problem }, { format: placeholder })}
        </span>
      )}
    </span>
  );
}
