#!/usr/bin/env python3
"""check.py NAME... : checks <name>.history.json and <name>.expected.json in this
script's folder (copy it beside a new set's files): records, sendAt, sender, and that
every annotation group has an alternative in the conversation's text."""
import json, re, sys, os
def occurs(term, text, low):
    t = term.strip().lower()
    if not t: return False
    if t.isascii():
        return re.search(r'(?<![A-Za-z0-9_])' + re.escape(t) + r'(?![A-Za-z0-9_])', low) is not None
    return t in low
bad = 0
for name in sys.argv[1:]:
    d = os.path.dirname(os.path.abspath(__file__))
    h = json.load(open(os.path.join(d, name + '.history.json'), encoding='utf-8'))
    e = json.load(open(os.path.join(d, name + '.expected.json'), encoding='utf-8'))
    last = 0; chars = 0
    for i, r in enumerate(h):
        if r.get('role') not in ('user', 'assistant'): print(name, 'record', i, 'bad role'); bad += 1
        s = r.get('sendAt')
        if not isinstance(s, int) or len(str(s)) != 19 or s <= last: print(name, 'record', i, 'bad sendAt'); bad += 1
        last = s if isinstance(s, int) else last
        if r.get('role') == 'user' and not r.get('sender'): print(name, 'record', i, 'user without sender'); bad += 1
        if r.get('role') == 'assistant' and 'sender' in r: print(name, 'record', i, 'assistant with sender'); bad += 1
        chars += len(r.get('content', ''))
    text = '\n'.join(r.get('content', '') for r in h); low = text.lower()
    for k in ('lang','note','decisions','optional','reversed','questions','answered','facts','topics','past_topics'):
        if k not in e: print(name, 'missing key', k); bad += 1
    def groups_of(key):
        for item in e.get(key, []):
            yield key, item, (item['all'] if isinstance(item, dict) else item)
    for key in ('decisions','optional','reversed','questions','answered','facts','topics','past_topics'):
        for k, item, groups in groups_of(key):
            if isinstance(item, dict) and item.get('polarity') not in ('要','不要','要|不要'):
                print(name, key, 'bad polarity', item); bad += 1
            for g in groups:
                if not any(occurs(a, text, low) for a in g.split('|')):
                    print(name, key, 'group not in text:', g); bad += 1
            # (the eval's rule: a decision of one group names no common word)
            if key in ('decisions', 'optional') and len(groups) < 2:
                for a in (a.strip() for g in groups for a in g.split('|')):
                    cjk = sum(1 for c in a if not c.isascii() and c.isalpha())
                    if not (any(not c.isalpha() for c in a) or cjk >= 3 or a.isascii() and len(a) >= 5):
                        print(name, key, 'one group with a common word:', a); bad += 1
    print(f"{name}: {len(h)} records, {chars} chars, {len(e.get('decisions',[]))} decisions, "
          f"{len(e.get('reversed',[]))} reversed, {len(e.get('questions',[]))} open q, {len(e.get('facts',[]))} facts")
sys.exit(1 if bad else 0)
