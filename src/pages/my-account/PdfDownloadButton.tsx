import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { toApiError } from '../../api/errors.ts';
import { downloadPdf } from '../../clearing/clearing-api.ts';
import { saveFile } from '../../components/csv.ts';
import { formatApiError } from '../../i18n/format-error.ts';
import { useLocale } from '../../i18n/use-locale.ts';

/**
 * Downloads a PDF of the clearing house in the user's language, under the server's file name
 * (`fileName` when it gives none). The server wants the bearer token, so the file is fetched and
 * saved from memory rather than opened by a plain link.
 */
export function PdfDownloadButton({ path, fileName, label }: { path: string; fileName: string; label: string }) {
  const intl = useIntl();
  const locale = useLocale();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    setError(null);
    try {
      const file = await downloadPdf(path, locale);
      saveFile(file.fileName ?? fileName, file.body);
    } catch (cause) {
      setError(formatApiError(intl, toApiError(cause)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="pdf-download">
      <button type="button" className="button button-secondary button-small" onClick={() => void download()} disabled={busy} aria-busy={busy} aria-label={label}>
        <FormattedMessage id="clearing.pdf" />
      </button>
      {error && (
        <span className="field-error small" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
