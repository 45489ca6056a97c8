import { Label, ProgressBar } from 'react-aria-components';

/**
 * A labelled progress bar; without `value` it shows activity of unknown length. `valueLabel`
 * replaces the percentage where a count says more (files checked).
 */
export function ProgressMeter({ label, value, valueLabel }: { label: string; value?: number; valueLabel?: string }) {
  return (
    <ProgressBar className="upload-progress" value={value} isIndeterminate={value === undefined} valueLabel={valueLabel}>
      {({ percentage, valueText, isIndeterminate }) => (
        <>
          <div className="upload-progress__text">
            <Label>{label}</Label>
            {!isIndeterminate && <span className="upload-progress__value">{valueText}</span>}
          </div>
          <div className="upload-progress__track">
            <div
              className="upload-progress__fill"
              data-indeterminate={isIndeterminate || undefined}
              style={isIndeterminate ? undefined : { inlineSize: `${percentage}%` }}
            />
          </div>
        </>
      )}
    </ProgressBar>
  );
}
