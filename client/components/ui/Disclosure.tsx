import type { ReactNode } from 'react';
import {
  Button,
  Disclosure as AriaDisclosure,
  DisclosureGroup as AriaDisclosureGroup,
  DisclosurePanel,
  Heading,
  type DisclosureGroupProps as AriaDisclosureGroupProps,
} from 'react-aria-components';
import { cx } from './classes';

export type DisclosureProps = {
  /** The always visible question or heading; it toggles the panel. */
  title: ReactNode;
  children: ReactNode;
  headingLevel?: 2 | 3 | 4;
  id?: string;
  defaultExpanded?: boolean;
  className?: string;
};

export function Disclosure({ title, children, headingLevel = 3, id, defaultExpanded, className }: DisclosureProps) {
  return (
    <AriaDisclosure id={id} defaultExpanded={defaultExpanded} className={cx('disclosure', className)}>
      <Heading level={headingLevel} className="disclosure__heading">
        <Button slot="trigger" className="disclosure__trigger">
          <svg className="disclosure__chevron" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <polyline points="9 6 15 12 9 18" />
          </svg>
          <span>{title}</span>
        </Button>
      </Heading>
      <DisclosurePanel className="disclosure__panel">{children}</DisclosurePanel>
    </AriaDisclosure>
  );
}

export type DisclosureGroupProps = Omit<AriaDisclosureGroupProps, 'className'> & { className?: string };

/** An accordion; several panels may be open at once so readers can compare answers. */
export function DisclosureGroup({ className, allowsMultipleExpanded = true, ...props }: DisclosureGroupProps) {
  return <AriaDisclosureGroup {...props} allowsMultipleExpanded={allowsMultipleExpanded} className={cx('disclosure-group', className)} />;
}
