import { Group, ToggleButton, ToggleButtonGroup, Toolbar, type Key } from 'react-aria-components';
import { Button } from '../../components/ui/Button';
import { useT, type MessageKey } from '../../lib/intl';
import type { DragMode } from '../../lib/cornerstone';
import { CONTRAST_PRESETS, type ViewAction } from './view-actions';

type ViewerToolbarProps = {
  /** The name of the viewport the buttons act on; null while none is ready. */
  targetLabel: string | null;
  onAction: (action: ViewAction) => void;
  dragMode: DragMode;
  onDragMode: (mode: DragMode) => void;
};

const ZOOM_STEP = 1.25;
const DRAG_MODES: readonly DragMode[] = ['pan', 'windowLevel'];
const PRESET_LABELS: Record<(typeof CONTRAST_PRESETS)[number], MessageKey> = {
  default: 'images.tools.preset.default',
  high: 'images.tools.preset.high',
  low: 'images.tools.preset.low',
};
const DRAG_MODE_LABELS: Record<DragMode, MessageKey> = {
  pan: 'images.tools.dragMode.pan',
  windowLevel: 'images.tools.dragMode.windowLevel',
};

/**
 * The visible controls of the viewer (react-aria Toolbar: one Tab stop, arrows between buttons):
 * zoom, reset, contrast presets and invert act on the viewport last touched or focused; the drag
 * mode says what one finger or the left mouse button does in every viewport.
 */
export function ViewerToolbar({ targetLabel, onAction, dragMode, onDragMode }: ViewerToolbarProps) {
  const t = useT();
  const disabled = targetLabel === null;
  return (
    <div className="viewer-tools">
      <Toolbar aria-label={t('images.tools.label')} className="viewer-tools__bar">
        <Group aria-label={t('images.tools.label')} className="viewer-tools__group">
          <Button variant="secondary" isDisabled={disabled} onPress={() => onAction({ kind: 'zoom', factor: ZOOM_STEP })}>
            {t('images.tools.zoomIn')}
          </Button>
          <Button variant="secondary" isDisabled={disabled} onPress={() => onAction({ kind: 'zoom', factor: 1 / ZOOM_STEP })}>
            {t('images.tools.zoomOut')}
          </Button>
          <Button variant="secondary" isDisabled={disabled} onPress={() => onAction({ kind: 'invert' })}>
            {t('images.tools.invert')}
          </Button>
          <Button variant="secondary" isDisabled={disabled} onPress={() => onAction({ kind: 'reset' })}>
            {t('images.tools.reset')}
          </Button>
        </Group>
        <Group aria-labelledby="viewer-tools-preset" className="viewer-tools__group">
          <span id="viewer-tools-preset" className="viewer-tools__label">
            {t('images.tools.preset')}
          </span>
          {CONTRAST_PRESETS.map((preset) => (
            <Button key={preset} variant="secondary" isDisabled={disabled} onPress={() => onAction({ kind: 'preset', preset })}>
              {t(PRESET_LABELS[preset])}
            </Button>
          ))}
        </Group>
        <ToggleButtonGroup
          aria-labelledby="viewer-tools-drag"
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={[dragMode]}
          onSelectionChange={(keys: Set<Key>) => {
            const [mode] = [...keys];
            if (mode === 'pan' || mode === 'windowLevel') onDragMode(mode);
          }}
          className="viewer-tools__group"
        >
          <span id="viewer-tools-drag" className="viewer-tools__label">
            {t('images.tools.dragMode')}
          </span>
          {DRAG_MODES.map((mode) => (
            <ToggleButton key={mode} id={mode} className="btn btn--secondary viewer-tools__toggle">
              {t(DRAG_MODE_LABELS[mode])}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Toolbar>
      {targetLabel && (
        <p className="viewer-tools__target" aria-live="polite">
          {t('images.tools.target', { name: targetLabel })}
        </p>
      )}
    </div>
  );
}
