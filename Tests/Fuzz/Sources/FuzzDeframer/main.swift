import FuzzFixtures

runLibFuzzer { data, size in fuzzDeframer(data, size) }
