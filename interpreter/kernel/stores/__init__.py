"""Where the kernel's searches on the machine keep their states, in numba: hash sets of
states of several words (`sets`), states kept in the order found with a hash table of their
indexes (`rows`), and the open list of the best-first searches (`heap`). Apart from the
searches because several searches share them and they know nothing of a puzzle: rows of
words, hashed and compared. (The word tables keep their states of one word in
`tables.core`.)"""
