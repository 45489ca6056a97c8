import { useId, type ReactNode } from 'react';
import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components';
import { cx } from './classes';
import './Switch.css';

export type SwitchProps = Omit<AriaSwitchProps, 'className' | 'children'> & {
  children: ReactNode;
  /** What switching it on or off does, read with it (aria-describedby). */
  description?: ReactNode;
  className?: string;
};

/**
 * An on/off setting that takes effect at once (role="switch"), unlike a checkbox in a form.
 * Space toggles it; the label and the description are read with it.
 */
export function Switch({ children, description, className, ...props }: SwitchProps) {
  const descriptionId = useId();
  return (
    <div className={cx('switch', className)}>
      <AriaSwitch {...props} aria-describedby={description ? descriptionId : undefined} className="switch__control">
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        <span className="switch__label">{children}</span>
      </AriaSwitch>
      {description && (
        <p id={descriptionId} className="field__description switch__description">
          {description}
        </p>
      )}
    </div>
  );
}
