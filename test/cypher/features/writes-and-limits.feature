Feature: Writes honour LIMIT and relationship uniqueness

  Scenario: LIMIT before a write bounds the writes
    Given an empty graph
    When executing query:
      """
      UNWIND range(1, 5) AS i
      WITH i LIMIT 2
      CREATE (:N {i: i})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  Scenario: LIMIT after MATCH bounds SET
    Given an empty graph
    And having executed:
      """
      UNWIND range(1, 5) AS i CREATE (:N {i: i})
      """
    When executing query:
      """
      MATCH (n:N)
      WITH n ORDER BY n.i LIMIT 3
      SET n.seen = true
      """
    Then the result should be empty
    And the side effects should be:
      | +properties | 3 |

  Scenario: A relationship is used once per pattern
    Given an empty graph
    And having executed:
      """
      CREATE (a:A)-[:R]->(b:B)
      """
    When executing query:
      """
      MATCH (x)-[r1]-(y)-[r2]-(z)
      RETURN count(*) AS c
      """
    Then the result should be, in any order:
      | c |
      | 0 |
    And no side effects
