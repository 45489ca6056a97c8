import type { ReactNode } from 'react';
import {
  Button,
  ComboBox as AriaComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
  type ComboBoxProps as AriaComboBoxProps,
  type Key,
} from 'react-aria-components';
import { cx } from './classes';
import './ComboBox.css';

export type ComboBoxOption = { id: Key; textValue: string; content?: ReactNode };

export type ComboBoxProps = Omit<AriaComboBoxProps<ComboBoxOption>, 'className' | 'children' | 'items' | 'defaultItems'> & {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: ReactNode;
  /** The options to show now: filtered by the caller (server search) or by `defaultFilter`. */
  options: readonly ComboBoxOption[];
  /** Said in the list when nothing matches (or while a search is under way). */
  emptyMessage: ReactNode;
  className?: string;
};

/**
 * A text field with a list of options (react-aria ComboBox): typing, ArrowDown or the button opens
 * it, typing filters or searches, arrows and Enter choose, Escape closes. `textValue` is what the field shows and screen readers say;
 * `content` may add detail under it (a place's powiat and gmina).
 */
export function ComboBox({ label, description, errorMessage, options, emptyMessage, className, isInvalid, name, ...props }: ComboBoxProps) {
  return (
    <AriaComboBox {...props} items={options} isInvalid={isInvalid || Boolean(errorMessage)} className={cx('field', 'combo-box', className)}>
      <Label className="field__label">{label}</Label>
      <div className="combo-box__field">
        {/* The name on the visible input, so focus can go to the first field with a problem. */}
        <Input className="field__input combo-box__input" name={name} />
        {/* Opens the whole list by touch or mouse; react-aria names it ("Show suggestions", in the
            page's language) and keeps it out of the Tab order, as ArrowDown does the same. */}
        <Button className="combo-box__button">
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="popover combo-box__popover">
        <ListBox<ComboBoxOption> className="menu" renderEmptyState={() => <p className="combo-box__empty">{emptyMessage}</p>}>
          {(option) => (
            <ListBoxItem id={option.id} textValue={option.textValue} className="menu__item combo-box__option">
              {option.content ?? option.textValue}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
