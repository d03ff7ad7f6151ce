import FuzzFixtures

runLibFuzzer { data, size in fuzzConnection(data, size) }
