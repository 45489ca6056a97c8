import type { Product } from '@common/types/orders';
import { Radio, RadioGroup } from '../../../components/ui/RadioGroup';
import { useLanguage, useT } from '../../../lib/intl';
import { formatMoney } from '../money';

/** The translations and the consultation on offer, each with what it is and what it costs. */
export function ProductChoice(props: { products: Product[]; value: number | null; onChange: (productId: number) => void }) {
  const t = useT();
  const lang = useLanguage();
  return (
    <RadioGroup
      label={t('orders.checkout.products')}
      value={props.value === null ? null : String(props.value)}
      onChange={(value) => props.onChange(Number(value))}
      isRequired
    >
      {props.products.map((product) => (
        <Radio key={product.id} value={String(product.id)} className="checkout-option">
          <span className="checkout-option__name">{product.name[lang]}</span>
          <span className="checkout-option__price">{formatMoney(product.price, lang)}</span>
          <span className="checkout-option__text">{product.description[lang]}</span>
        </Radio>
      ))}
    </RadioGroup>
  );
}
