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
  return (
    <div className="term-extras">
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} comments and history
        <span className="visually-hidden"> of “{term.name}”</span>
      </button>
      {open && (
        <div className="stack">
          <CommentsPanel entryId={term.id} level="TERM" about={term.name} canComment={canComment} />
          <TermHistory concept={concept} term={term} dictionary={dictionary} onRestored={onChanged} />
        </div>
      )}
    </div>
  );
}
