import { Label, ProgressBar } from 'react-aria-components';

/**
 * A labelled progress bar. `valueLabel` replaces the percentage where a count says more (files
 * checked). The fill is scaled, not sized, and steps without a transition: a marker scan updates
 * it four times a second while the page posts files to the worker as fast as it can
 * (bench/marker-scan.ts), and an animated or resized fill would take frames, layouts and
 * transition events from that.
 */
export function ProgressMeter({ label, value, valueLabel }: { label: string; value: number; valueLabel?: string }) {
  return (
    <ProgressBar className="upload-progress" value={value} valueLabel={valueLabel}>
      {({ percentage, valueText }) => (
        <>
          <div className="upload-progress__text">
            <Label>{label}</Label>
            <span className="upload-progress__value">{valueText}</span>
          </div>
          <div className="upload-progress__track">
            <div className="upload-progress__fill" style={{ transform: `scaleX(${(percentage ?? 0) / 100})` }} />
          </div>
        </>
      )}
    </ProgressBar>
  );
}
