import { memo, useRef } from 'react';
import { DropZone, FileTrigger, Text } from 'react-aria-components';
import { Button } from '../../components/ui/Button';
import { useT } from '../../lib/intl';
import { pickedFromDataTransfer, pickedFromDropItems, pickedFromFileList, type PickedFile } from './picked-files';

type Props = { isDisabled: boolean; onPick: (picked: Promise<PickedFile[]> | PickedFile[]) => void };

/**
 * Files or whole folders, three ways: the two buttons (also what a tablet offers), dropping files
 * or folders on the zone, or pasting files into it. No file type filter: DICOM files often have
 * no extension at all; the marker scan decides.
 */
export const FilePicker = memo(function FilePicker({ isDisabled, onPick }: Props) {
  const t = useT();
  // A drop is read from the browser's own DataTransfer (captured before React Aria sees it), so
  // files without a file-system entry are not lost; React Aria's items then serve pastes only.
  const dropTaken = useRef(false);
  return (
    <div
      className="upload-drop-area"
      onDropCapture={(event) => {
        if (isDisabled) return;
        dropTaken.current = true;
        onPick(pickedFromDataTransfer(event.dataTransfer));
      }}
    >
      <DropZone
        className="upload-drop"
        aria-label={t('upload.dropZone.label')}
        // Kept enabled while busy but refusing: a disabled zone would let the browser open the dropped file instead.
        getDropOperation={() => (isDisabled ? 'cancel' : 'copy')}
        onDrop={(event) => {
          if (dropTaken.current) dropTaken.current = false;
          else if (!isDisabled) onPick(pickedFromDropItems(event.items));
        }}
      >
        <Text slot="label" className="upload-drop__hint">
          {t('upload.dropZone.hint')}
        </Text>
        <div className="upload-drop__buttons">
          <FileTrigger allowsMultiple onSelect={(files) => onPick(pickedFromFileList(files))}>
            <Button variant="secondary" isDisabled={isDisabled}>
              {t('upload.chooseFiles')}
            </Button>
          </FileTrigger>
          <FileTrigger acceptDirectory allowsMultiple onSelect={(files) => onPick(pickedFromFileList(files))}>
            <Button variant="secondary" isDisabled={isDisabled}>
              {t('upload.chooseFolder')}
            </Button>
          </FileTrigger>
        </div>
      </DropZone>
    </div>
  );
});
