import { ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import { useT } from '../../lib/intl';
import { SLOT_NAMES, type SlotName } from './hanging';
import { slotName } from './view-labels';

/** On a phone, or while comparing: which of the four views is shown. */
export function ViewSwitcher({ selected, onSelect }: { selected: SlotName; onSelect: (slot: SlotName) => void }) {
  const t = useT();
  return (
    <ToggleButtonGroup
      aria-label={t('images.switcher.label')}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[selected]}
      onSelectionChange={(keys: Set<Key>) => {
        const [slot] = [...keys];
        if (SLOT_NAMES.includes(slot as SlotName)) onSelect(slot as SlotName);
      }}
      className="view-switcher"
    >
      {SLOT_NAMES.map((slot) => (
        <ToggleButton key={slot} id={slot} className="btn btn--secondary viewer-tools__toggle">
          {slotName(t, slot)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
