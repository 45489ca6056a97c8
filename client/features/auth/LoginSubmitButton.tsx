import { Button } from '../../components/ui/Button';
import { useT } from '../../lib/intl';

/** While the login request runs the button shows a spinner and ignores further presses. */
export function LoginSubmitButton({ isPending }: { isPending: boolean }) {
  const t = useT();
  return (
    <Button type="submit" isPending={isPending} className="login-form__submit">
      {isPending && <span className="spinner" aria-hidden="true" />}
      {t('login.submit')}
    </Button>
  );
}
