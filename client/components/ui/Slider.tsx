import { useId, type ReactNode } from 'react';
import { Label, Slider as AriaSlider, SliderOutput, SliderThumb, SliderTrack, Text } from 'react-aria-components';
import { cx } from './classes';
import './Slider.css';

export type SliderProps = {
  label: ReactNode;
  description?: ReactNode;
  value: number;
  onChange?: (value: number) => void;
  minValue?: number;
  maxValue?: number;
  /** The words for a value (e.g. "good" for 4); shown next to the label and read with the value. */
  valueLabel: (value: number) => string;
  /** Runs from maxValue on the left to minValue on the right; `value` stays the real value. */
  reversed?: boolean;
  isDisabled?: boolean;
  className?: string;
};

/**
 * A whole-number scale with words for each step. The words are shown under the track and the
 * chosen one in the output, so the value never depends on seeing the thumb's position.
 */
export function Slider({
  label,
  description,
  value,
  onChange,
  minValue = 1,
  maxValue = 5,
  valueLabel,
  reversed = false,
  isDisabled,
  className,
}: SliderProps) {
  const outputId = useId();
  const descriptionId = useId();
  // The track always grows to the right; a reversed scale maps its positions back to values.
  const toPosition = (real: number) => (reversed ? minValue + maxValue - real : real);
  const steps = Array.from({ length: maxValue - minValue + 1 }, (_, index) => toPosition(minValue + index));

  return (
    <AriaSlider
      className={cx('slider', reversed && 'slider--reversed', className)}
      value={toPosition(value)}
      onChange={(position) => onChange?.(toPosition(position))}
      minValue={minValue}
      maxValue={maxValue}
      step={1}
      isDisabled={isDisabled}
    >
      <div className="slider__head">
        <Label className="field__label">{label}</Label>
        <SliderOutput className="slider__output">
          <span id={outputId}>{valueLabel(value)}</span>
        </SliderOutput>
      </div>
      <SliderTrack className="slider__track">
        {({ state }) => (
          <>
            <div className="slider__rail" aria-hidden="true" />
            {/* The fill grows from the low end of the scale, which is the right end when reversed. */}
            <div
              className={cx('slider__fill', reversed && 'slider__fill--from-end')}
              aria-hidden="true"
              style={{ inlineSize: `${(reversed ? 1 - state.getThumbPercent(0) : state.getThumbPercent(0)) * 100}%` }}
            />
            <SliderThumb className="slider__thumb" aria-describedby={cx(outputId, description ? descriptionId : null)} />
          </>
        )}
      </SliderTrack>
      <ol className="slider__scale" aria-hidden="true">
        {steps.map((real) => (
          <li key={real} className={cx('slider__step', real === value && 'slider__step--chosen')}>
            <span className="slider__step-number">{real}</span>
            <span className="slider__step-label">{valueLabel(real)}</span>
          </li>
        ))}
      </ol>
      {description && (
        <Text slot="description" id={descriptionId} className="field__description">
          {description}
        </Text>
      )}
    </AriaSlider>
  );
}
