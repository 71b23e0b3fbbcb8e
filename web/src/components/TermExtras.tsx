import { useTranslation } from 'react-i18next';
import './editor.css';
import { useState } from 'react';
import type { Concept, Dictionary, Term } from '../data';
import { CommentsPanel } from './CommentsPanel';
import { TermHistory } from './TermHistory';

/**
 * A term's own comments and history, behind a disclosure button (aria-expanded), so a concept with many
 * terms loads them only for the term someone opens.
 */
export function TermExtras(props: {
  concept: Concept;
  term: Term;
  dictionary?: Dictionary;
  canComment: boolean;
  onChanged: () => void;
}) {
  const { concept, term, dictionary, canComment, onChanged } = props;
  const [open, setOpen] = useState(false);
  const { t, i18n } = useTranslation('concept');
  return (
    // The interface's language inside a section marked with the language of its terms.
    <div className="term-extras" lang={i18n.language}>
      {/* The term is named by the article around it (ConceptView), not here: button names stay short. */}
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? t('extras.hide') : t('extras.show')}
      </button>
      {open && (
        <div className="stack">
          <CommentsPanel
            entryId={term.id}
            level="TERM"
            about={term.name}
            canComment={canComment}
            dictionary={dictionary}
          />
          <TermHistory concept={concept} term={term} dictionary={dictionary} onRestored={onChanged} />
        </div>
      )}
    </div>
  );
}
