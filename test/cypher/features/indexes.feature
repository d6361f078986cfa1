Feature: Property indexes

  Scenario: A node index answers equality lookups
    Given an empty graph
    And having executed:
      """
      CREATE INDEX FOR (n:Person) ON (n.name)
      """
    And having executed:
      """
      UNWIND range(1, 50) AS i
      CREATE (:Person {name: 'p' + i, num: i})
      """
    When executing query:
      """
      MATCH (n:Person {name: 'p7'})
      RETURN n.num AS num
      """
    Then the result should be, in any order:
      | num |
      | 7   |
    And no side effects

  Scenario: An index follows property updates and label changes
    Given an empty graph
    And having executed:
      """
      CREATE INDEX FOR (n:Person) ON (n.name)
      """
    And having executed:
      """
      CREATE (:Person {name: 'old'}), (:Other {name: 'new'})
      """
    And having executed:
      """
      MATCH (n:Person {name: 'old'}) SET n.name = 'new'
      """
    And having executed:
      """
      MATCH (n:Other) SET n:Person
      """
    When executing query:
      """
      MATCH (n:Person)
      WHERE n.name = 'new'
      RETURN count(n) AS c
      """
    Then the result should be, in any order:
      | c |
      | 2 |
    And no side effects

  Scenario: Integer and float keys are equivalent in an index lookup
    Given an empty graph
    And having executed:
      """
      CREATE INDEX FOR (n:N) ON (n.v)
      """
    And having executed:
      """
      CREATE (:N {v: 1}), (:N {v: 2.5})
      """
    When executing query:
      """
      MATCH (n:N) WHERE n.v = 1.0 RETURN n.v AS v
      """
    Then the result should be, in any order:
      | v |
      | 1 |
    And no side effects

  Scenario: A relationship index answers equality lookups
    Given an empty graph
    And having executed:
      """
      CREATE INDEX FOR ()-[r:KNOWS]-() ON (r.since)
      """
    And having executed:
      """
      CREATE (:P {name: 'a'})-[:KNOWS {since: 2020}]->(:P {name: 'b'}),
             (:P {name: 'c'})-[:KNOWS {since: 2021}]->(:P {name: 'd'})
      """
    When executing query:
      """
      MATCH (x)-[r:KNOWS {since: 2021}]->(y)
      RETURN x.name AS x, y.name AS y
      """
    Then the result should be, in any order:
      | x   | y   |
      | 'c' | 'd' |
    And no side effects

  Scenario: Dropping an index keeps queries correct
    Given an empty graph
    And having executed:
      """
      CREATE INDEX FOR (n:Person) ON (n.name)
      """
    And having executed:
      """
      CREATE (:Person {name: 'a'})
      """
    And having executed:
      """
      DROP INDEX ON :Person(name)
      """
    When executing query:
      """
      MATCH (n:Person {name: 'a'}) RETURN count(*) AS c
      """
    Then the result should be, in any order:
      | c |
      | 1 |
    And no side effects
