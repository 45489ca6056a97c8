import { memo, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Pagination } from '../../components/ui/Pagination';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../components/ui/Table';
import { useIntl, useT } from '../../lib/intl';
import { formatSize } from './format-size';
import { totalBytes, type SelectedFile } from './selection';

/**
 * A disc holds thousands of images: the list shows a page of them. Ten rows: the table renders in
 * one piece (its collection is built synchronously), and twenty took over 50 ms on a busy machine.
 */
const FILES_PAGE_SIZE = 10;

type Props = {
  files: readonly SelectedFile[];
  isDisabled: boolean;
  onRemove: (id: string) => void;
  onClear: () => void;
};

/** The files that passed the marker scan, with their sizes and the total (memoised: progress updates re-render the page often). */
export const SelectedFiles = memo(function SelectedFiles({ files, isDisabled, onRemove, onClear }: Props) {
  const t = useT();
  const intl = useIntl();
  const [wantedPage, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(files.length / FILES_PAGE_SIZE));
  // Removing files may leave the chosen page past the end: show the last one instead.
  const page = Math.min(wantedPage, pageCount);
  const shown = files.slice((page - 1) * FILES_PAGE_SIZE, page * FILES_PAGE_SIZE);

  return (
    <section className="upload-files" aria-labelledby="upload-files-title">
      <h2 id="upload-files-title" className="upload-page__subtitle">
        {t('upload.list.title')}
      </h2>
      <p className="upload-files__total" role="status">
        {files.length > 0 ? t('upload.total', { count: files.length, size: formatSize(intl, totalBytes(files)) }) : t('upload.list.empty')}
      </p>
      {files.length > 0 && (
        <>
          <Table aria-label={t('upload.list.title')} className="upload-files__table">
            <TableHeader>
              <Column isRowHeader>{t('upload.column.path')}</Column>
              <Column>{t('upload.column.size')}</Column>
              <Column>
                <span className="visually-hidden">{t('upload.column.actions')}</span>
              </Column>
            </TableHeader>
            <TableBody>
              {shown.map((item) => (
                <Row key={item.id} id={item.id}>
                  <Cell>
                    <span className="upload-files__path">{item.path}</span>
                  </Cell>
                  <Cell>{formatSize(intl, item.size)}</Cell>
                  <Cell>
                    <Button
                      variant="quiet"
                      isDisabled={isDisabled}
                      aria-label={t('upload.removeFile', { path: item.path })}
                      onPress={() => onRemove(item.id)}
                    >
                      {t('upload.remove')}
                    </Button>
                  </Cell>
                </Row>
              ))}
            </TableBody>
          </Table>
          <div className="upload-files__footer">
            {pageCount > 1 && <Pagination page={page} pageCount={pageCount} onPageChange={setPage} />}
            <Button variant="secondary" isDisabled={isDisabled} onPress={onClear}>
              {t('upload.clear')}
            </Button>
          </div>
        </>
      )}
    </section>
  );
});
